#include "serve/page_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace databox::serve {
namespace {

constexpr std::size_t kMaxHead = 16 * 1024;
constexpr int kPollMillis = 200;
constexpr int kReadSeconds = 5;

std::string_view Reason(int status) {
  switch (status) {
    case 200:
      return "OK";
    case 400:
      return "Bad Request";
    case 404:
      return "Not Found";
    case 405:
      return "Method Not Allowed";
    default:
      return "Internal Server Error";
  }
}

//! The request head (up to the blank line), or "" when the client sent none in time.
std::string ReadHead(int fd) {
  timeval timeout{kReadSeconds, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  std::string head;
  char buffer[4096];
  while (head.size() < kMaxHead && head.find("\r\n\r\n") == std::string::npos) {
    const ssize_t n = recv(fd, buffer, sizeof buffer, 0);
    if (n <= 0) return head.find("\r\n") == std::string::npos ? "" : head;
    head.append(buffer, static_cast<std::size_t>(n));
  }
  return head;
}

void SendAll(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (n <= 0) return;  // the client went away: nothing to tell it
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
}

PageReply Plain(int status, std::string text) {
  return {status, "text/plain; charset=utf-8", std::move(text) + "\n"};
}

//! The reply to one request head.
std::pair<PageReply, bool> Answer(std::string_view head, const PageHandler& handler) {
  const auto line_end = head.find("\r\n");
  const std::string_view line = head.substr(0, line_end);
  const auto first = line.find(' ');
  const auto second = first == std::string_view::npos ? first : line.find(' ', first + 1);
  if (second == std::string_view::npos) return {Plain(400, "bad request line"), false};
  const std::string_view method = line.substr(0, first);
  std::string_view path = line.substr(first + 1, second - first - 1);
  path = path.substr(0, path.find('?'));
  const bool head_only = method == "HEAD";
  if (method != "GET" && !head_only) return {Plain(405, "only GET and HEAD"), false};
  return {handler(path), head_only};
}

void Respond(int fd, const PageHandler& handler) {
  const std::string head = ReadHead(fd);
  if (head.empty()) return;
  auto [reply, head_only] = Answer(head, handler);
  std::string response = "HTTP/1.1 " + std::to_string(reply.status) + " " +
                         std::string(Reason(reply.status)) +
                         "\r\nContent-Type: " + reply.content_type +
                         "\r\nContent-Length: " + std::to_string(reply.body.size()) +
                         "\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff"
                         "\r\nConnection: close\r\n\r\n";
  if (!head_only) response += reply.body;
  SendAll(fd, response);
}

}  // namespace

Result<PageServer> PageServer::Listen(int port) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0)
    return MakeError(ErrorKind::kIo, std::string("cannot open a socket: ") + strerror(errno));
  const int yes = 1;
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = htons(static_cast<uint16_t>(port));
  if (bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 || listen(fd, 16) != 0) {
    const std::string reason = strerror(errno);
    close(fd);
    return MakeError(ErrorKind::kIo, "cannot listen on 127.0.0.1:" + std::to_string(port) + ": " +
                                         reason + " (choose another --port)");
  }
  socklen_t length = sizeof address;
  getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
  return PageServer(fd, ntohs(address.sin_port));
}

PageServer::~PageServer() {
  if (fd_ >= 0) close(fd_);
}

void PageServer::Serve(const PageHandler& handler, const volatile std::sig_atomic_t& stop) const {
  while (!stop) {
    pollfd listening{fd_, POLLIN, 0};
    if (poll(&listening, 1, kPollMillis) <= 0) continue;
    const int client = accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (client < 0) continue;
    Respond(client, handler);
    close(client);
  }
}

}  // namespace databox::serve
