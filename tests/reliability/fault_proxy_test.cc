// The fault proxy on its own (no services): byte-exact forwarding of chunked bodies with the
// Host header unchanged and Expect: 100-continue answered, and the faults as the client sees
// them. The upstream is a raw socket server, so what it received is checked byte for byte.
#include "fault_proxy.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace databox::reliability {
namespace {

int Connect(int port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = htons(static_cast<uint16_t>(port));
  EXPECT_EQ(::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  return fd;
}

void SendAll(int fd, const std::string& bytes) {
  ASSERT_EQ(::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL),
            static_cast<ssize_t>(bytes.size()));
}

//! Reads until `until` was received (then stops) or the peer closed; at most 5 s.
std::string Receive(int fd, const std::string& until = "") {
  std::string got;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (std::chrono::steady_clock::now() < deadline) {
    if (!until.empty() && got.find(until) != std::string::npos) break;
    pollfd entry{fd, POLLIN, 0};
    if (::poll(&entry, 1, 50) <= 0) continue;
    char chunk[4096];
    const ssize_t n = ::recv(fd, chunk, sizeof chunk, 0);
    if (n <= 0) break;
    got.append(chunk, static_cast<std::size_t>(n));
  }
  return got;
}

//! Accepts connections; reads each request up to `request_end`, records it, sends `answer`,
//! closes.
class RawUpstream {
 public:
  RawUpstream(std::string request_end, std::string answer)
      : request_end_(std::move(request_end)), answer_(std::move(answer)) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    ::bind(fd_, reinterpret_cast<sockaddr*>(&address), sizeof address);
    ::listen(fd_, 8);
    ::getsockname(fd_, reinterpret_cast<sockaddr*>(&address), &length);
    port_ = ntohs(address.sin_port);
    thread_ = std::thread([this] {
      while (!stop_) {
        pollfd entry{fd_, POLLIN, 0};
        if (::poll(&entry, 1, 20) <= 0) continue;
        const int client = ::accept(fd_, nullptr, nullptr);
        std::string request = Receive(client, request_end_);
        {
          std::lock_guard lock(mutex_);
          received_.push_back(request);
        }
        ::send(client, answer_.data(), answer_.size(), MSG_NOSIGNAL);
        ::close(client);
      }
    });
  }
  ~RawUpstream() {
    stop_ = true;
    thread_.join();
    ::close(fd_);
  }
  int port() const { return port_; }
  std::vector<std::string> received() {
    std::lock_guard lock(mutex_);
    return received_;
  }

 private:
  std::string request_end_;
  std::string answer_;
  int fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  std::mutex mutex_;
  std::vector<std::string> received_;
  std::thread thread_;
};

constexpr char kChunkedAnswer[] =
    "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n";

TEST(DependencyFaultsProxy, ForwardsChunkedBodiesByteForByteWithTheHostUnchanged) {
  RawUpstream upstream("0\r\n\r\n", kChunkedAnswer);
  FaultProxy proxy(upstream.port());
  const int fd = Connect(proxy.port());
  const std::string head =
      "POST /v1/x HTTP/1.1\r\nHost: signed.example:1234\r\nTransfer-Encoding: chunked\r\n"
      "Expect: 100-continue\r\n\r\n";
  SendAll(fd, head);
  EXPECT_EQ(Receive(fd, "\r\n\r\n"), "HTTP/1.1 100 Continue\r\n\r\n");
  SendAll(fd, "3\r\nabc\r\n0\r\n\r\n");
  EXPECT_EQ(Receive(fd, "0\r\n\r\n"), kChunkedAnswer);
  ::close(fd);
  const auto received = upstream.received();
  ASSERT_EQ(received.size(), 1u);
  // Byte for byte, except the Expect field the proxy answered itself.
  EXPECT_EQ(received[0],
            "POST /v1/x HTTP/1.1\r\nHost: signed.example:1234\r\nTransfer-Encoding: chunked\r\n"
            "\r\n3\r\nabc\r\n0\r\n\r\n");
  ASSERT_EQ(proxy.log().size(), 1u);
  EXPECT_EQ(proxy.log()[0].outcome, "HTTP 200");
  EXPECT_EQ(proxy.injected(), 0);
}

TEST(DependencyFaultsProxy, InjectsOnlyIntoTheScheduledRequests) {
  RawUpstream upstream("\r\n\r\n", "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n0123456789");
  FaultProxy proxy(upstream.port());
  proxy.SetRules({
      {"GET", "^/t$", 2, 1, Fault{FaultKind::kTruncate, 0, "", {}}},
      {"GET", "^/s$", 1, -1, Fault{FaultKind::kStatus, 429, "7", {}}},
      {"GET", "^/d$", 1, 1, Fault{FaultKind::kDropBeforeForward, 0, "", {}}},
  });
  // Reads until the upstream body or the end of the proxy's own error body (it keeps the
  // connection open after one).
  auto get = [&](const std::string& path, const std::string& until = "0123456789") {
    const int fd = Connect(proxy.port());
    SendAll(fd, "GET " + path + " HTTP/1.1\r\nHost: h\r\n\r\n");
    std::string answer = Receive(fd, until);
    ::close(fd);
    return answer;
  };
  const std::string whole = "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n0123456789";
  EXPECT_EQ(get("/t"), whole);  // the first match is not scheduled
  EXPECT_EQ(get("/t"), "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n01234");  // then closed
  EXPECT_EQ(get("/t"), whole);
  for (int i = 0; i < 2; ++i) {
    const std::string limited = get("/s", "}}");
    EXPECT_EQ(limited.rfind("HTTP/1.1 429 ", 0), 0u) << limited;
    EXPECT_NE(limited.find("Retry-After: 7\r\n"), std::string::npos) << limited;
  }
  EXPECT_EQ(get("/d"), "");  // closed unanswered
  EXPECT_EQ(get("/d"), whole);
  EXPECT_EQ(proxy.injected(), 4);
  // Status answers and drops before forwarding never reach the upstream.
  EXPECT_EQ(upstream.received().size(), 4u);
}

}  // namespace
}  // namespace databox::reliability
