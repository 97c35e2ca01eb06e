// The server of `databox serve`: what it answers on 127.0.0.1 (status, headers, HEAD without a
// body, other methods refused), that a port in use is an error naming it, and that it stops when
// told to.
#include "serve/page_server.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <csignal>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace databox::serve {
namespace {

//! Sends `request` as it is to 127.0.0.1:`port` and returns all the server answered (until it
//! closed the connection).
std::string Exchange(int port, const std::string& request) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = htons(static_cast<uint16_t>(port));
  if (connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
    close(fd);
    return "";
  }
  send(fd, request.data(), request.size(), MSG_NOSIGNAL);
  std::string answer;
  char buffer[4096];
  ssize_t n = 0;
  while ((n = recv(fd, buffer, sizeof buffer, 0)) > 0) answer.append(buffer, n);
  close(fd);
  return answer;
}

bool Has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

class PageServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto server = PageServer::Listen(0);
    ASSERT_TRUE(server.has_value()) << server.error().ToString();
    server_.emplace(std::move(*server));
    port_ = server_->port();
    serving_ = std::thread([this] {
      server_->Serve(
          [this](std::string_view path) {
            paths_.emplace_back(path);
            if (path == "/missing") return PageReply{404, "text/plain; charset=utf-8", "none\n"};
            if (path == "/data.json") return PageReply{200, "application/json", "[]\n"};
            return PageReply{200, "text/html; charset=utf-8", "<p>page</p>\n"};
          },
          stop_);
    });
  }
  void TearDown() override {
    stop_ = SIGTERM;
    if (serving_.joinable()) serving_.join();
  }

  std::optional<PageServer> server_;
  int port_ = 0;
  volatile std::sig_atomic_t stop_ = 0;
  std::thread serving_;
  std::vector<std::string> paths_;  //!< written by the server's one worker, read after a request
};

TEST_F(PageServerTest, AGetIsAnsweredWithTheHandlersReplyAndTheCacheHeadersThenClosed) {
  const std::string answer = Exchange(port_, "GET /?view=all HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_TRUE(answer.starts_with("HTTP/1.1 200 OK\r\n")) << answer;
  EXPECT_TRUE(Has(answer, "\r\nContent-Type: text/html; charset=utf-8\r\n")) << answer;
  EXPECT_TRUE(Has(answer, "\r\nContent-Length: 12\r\n")) << answer;
  EXPECT_TRUE(Has(answer, "\r\nCache-Control: no-store\r\n")) << answer;
  EXPECT_TRUE(Has(answer, "\r\nX-Content-Type-Options: nosniff\r\n")) << answer;
  EXPECT_TRUE(Has(answer, "\r\nConnection: close\r\n")) << answer;
  EXPECT_TRUE(answer.ends_with("\r\n\r\n<p>page</p>\n")) << answer;
  EXPECT_EQ(paths_, std::vector<std::string>{"/"}) << "the handler gets the path without its query";

  const std::string json = Exchange(port_, "GET /data.json HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_TRUE(Has(json, "\r\nContent-Type: application/json\r\n")) << json;
  const std::string missing = Exchange(port_, "GET /missing HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_TRUE(missing.starts_with("HTTP/1.1 404 Not Found\r\n")) << missing;
  EXPECT_TRUE(missing.ends_with("\r\n\r\nnone\n")) << missing;
}

TEST_F(PageServerTest, AHeadHasTheHeadersOfTheGetAndNoBody) {
  const std::string answer = Exchange(port_, "HEAD / HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_TRUE(answer.starts_with("HTTP/1.1 200 OK\r\n")) << answer;
  EXPECT_TRUE(Has(answer, "\r\nContent-Length: 12\r\n")) << answer;
  EXPECT_TRUE(Has(answer, "\r\nCache-Control: no-store\r\n")) << answer;
  EXPECT_TRUE(answer.ends_with("\r\n\r\n")) << answer;
}

TEST_F(PageServerTest, OtherMethodsAre405AndNonsenseIs400) {
  for (const std::string method : {"POST", "PUT", "DELETE", "PATCH", "OPTIONS"}) {
    const std::string answer =
        Exchange(port_, method + " / HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n");
    EXPECT_TRUE(answer.starts_with("HTTP/1.1 405 Method Not Allowed\r\n")) << method << answer;
    EXPECT_TRUE(answer.ends_with("\r\n\r\nonly GET and HEAD\n")) << answer;
  }
  const std::string nonsense = Exchange(port_, "HELLO\r\n\r\n");
  EXPECT_TRUE(nonsense.starts_with("HTTP/1.1 400 Bad Request\r\n")) << nonsense;
  EXPECT_TRUE(paths_.empty());
}

TEST_F(PageServerTest, APortInUseIsAnErrorNamingIt) {
  auto second = PageServer::Listen(port_);
  ASSERT_FALSE(second.has_value());
  EXPECT_EQ(second.error().kind, ErrorKind::kIo);
  EXPECT_TRUE(Has(second.error().message, "cannot listen on 127.0.0.1:" + std::to_string(port_) +
                                              ": Address already in use (choose another --port)"))
      << second.error().message;
}

TEST_F(PageServerTest, StopsWhenToldAndFreesThePort) {
  stop_ = SIGINT;
  serving_.join();
  server_.reset();
  EXPECT_EQ(Exchange(port_, "GET / HTTP/1.1\r\n\r\n"), "");
  EXPECT_TRUE(PageServer::Listen(port_).has_value()) << "the port is free again";
}

}  // namespace
}  // namespace databox::serve
