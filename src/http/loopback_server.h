// A tiny HTTP/1.1 server on 127.0.0.1 for tests of real libcurl behaviour. Test-only: include
// it from *_test.cc files. One connection at a time, keep-alive, Content-Length bodies.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "http/message.h"

namespace databox::http::testing {

struct ReceivedRequest {
  std::string method;
  std::string target;  //!< path and query as sent
  Headers headers;
  std::string body;
};

struct Reply {
  int status = 200;
  Headers headers;
  std::string body;
  std::chrono::milliseconds delay{0};  //!< wait before answering (timeout tests)
};

class LoopbackServer {
 public:
  //! `handler` gets each request and its 0-based index among all requests.
  using Handler = std::function<Reply(const ReceivedRequest&, int)>;

  //! Listens on `address` (another loopback address, such as 127.0.0.2, is another origin).
  explicit LoopbackServer(Handler handler, std::string host = "127.0.0.1")
      : handler_(std::move(handler)), address_(std::move(host)) {
    listen_fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    int on = 1;
    ::setsockopt(listen_fd_, SOL_SOCKET, SO_REUSEADDR, &on, sizeof(on));
    sockaddr_in address{};
    address.sin_family = AF_INET;
    ::inet_pton(AF_INET, address_.c_str(), &address.sin_addr);
    address.sin_port = 0;
    ::bind(listen_fd_, reinterpret_cast<sockaddr*>(&address), sizeof(address));
    ::listen(listen_fd_, 8);
    socklen_t length = sizeof(address);
    ::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&address), &length);
    port_ = ntohs(address.sin_port);
    thread_ = std::thread([this] { Run(); });
  }

  ~LoopbackServer() {
    stop_ = true;
    thread_.join();
    ::close(listen_fd_);
  }
  LoopbackServer(const LoopbackServer&) = delete;
  LoopbackServer& operator=(const LoopbackServer&) = delete;

  int port() const { return port_; }
  std::string Url(std::string_view target) const {
    return "http://" + address_ + ":" + std::to_string(port_) + std::string(target);
  }
  int connections() const { return connections_; }
  std::vector<ReceivedRequest> received() const {
    std::lock_guard lock(mutex_);
    return received_;
  }

  //! A port on which nothing listens (bound, then closed).
  static int ClosedPort() {
    int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address));
    socklen_t length = sizeof(address);
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
    ::close(fd);
    return ntohs(address.sin_port);
  }

 private:
  //! Waits until `fd` is readable or the server stops; false when stopping.
  bool WaitReadable(int fd) const {
    while (!stop_) {
      pollfd entry{fd, POLLIN, 0};
      if (::poll(&entry, 1, 20) > 0) return true;
    }
    return false;
  }

  void Run() {
    while (WaitReadable(listen_fd_)) {
      int fd = ::accept(listen_fd_, nullptr, nullptr);
      if (fd < 0) continue;
      ++connections_;
      Serve(fd);
      ::close(fd);
    }
  }

  void Serve(int fd) {
    std::string buffer;
    while (true) {
      std::size_t header_end;
      while ((header_end = buffer.find("\r\n\r\n")) == std::string::npos) {
        if (!Receive(fd, buffer)) return;
      }
      ReceivedRequest request = ParseHead(buffer.substr(0, header_end));
      buffer.erase(0, header_end + 4);
      std::size_t length = 0;
      if (auto value = request.headers.Get("Content-Length"))
        length = std::stoul(std::string(*value));
      while (buffer.size() < length) {
        if (!Receive(fd, buffer)) return;
      }
      request.body = buffer.substr(0, length);
      buffer.erase(0, length);
      int index;
      {
        std::lock_guard lock(mutex_);
        received_.push_back(request);
        index = static_cast<int>(received_.size()) - 1;
      }
      Reply reply = handler_(request, index);
      for (auto waited = std::chrono::milliseconds(0); waited < reply.delay && !stop_;
           waited += std::chrono::milliseconds(10)) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
      }
      std::string out = "HTTP/1.1 " + std::to_string(reply.status) + " Status\r\n";
      for (const auto& [name, value] : reply.headers.fields()) out += name + ": " + value + "\r\n";
      out += "Content-Length: " + std::to_string(reply.body.size()) + "\r\n\r\n";
      if (request.method != "HEAD") out += reply.body;
      if (::send(fd, out.data(), out.size(), MSG_NOSIGNAL) < 0) return;
    }
  }

  bool Receive(int fd, std::string& buffer) const {
    if (!WaitReadable(fd)) return false;
    char chunk[4096];
    ssize_t n = ::recv(fd, chunk, sizeof(chunk), 0);
    if (n <= 0) return false;
    buffer.append(chunk, static_cast<std::size_t>(n));
    return true;
  }

  static ReceivedRequest ParseHead(const std::string& head) {
    ReceivedRequest request;
    std::size_t line_end = head.find("\r\n");
    std::string line = head.substr(0, line_end);
    std::size_t first = line.find(' ');
    std::size_t second = line.find(' ', first + 1);
    request.method = line.substr(0, first);
    request.target = line.substr(first + 1, second - first - 1);
    while (line_end != std::string::npos) {
      std::size_t start = line_end + 2;
      line_end = head.find("\r\n", start);
      line =
          head.substr(start, line_end == std::string::npos ? std::string::npos : line_end - start);
      std::size_t colon = line.find(':');
      if (colon == std::string::npos) continue;
      std::size_t value_start = line.find_first_not_of(' ', colon + 1);
      request.headers.Add(line.substr(0, colon),
                          value_start == std::string::npos ? "" : line.substr(value_start));
    }
    return request;
  }

  Handler handler_;
  std::string address_;
  int listen_fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  std::atomic<int> connections_{0};
  mutable std::mutex mutex_;
  std::vector<ReceivedRequest> received_;  //!< guarded by mutex_
  std::thread thread_;                     //!< last: starts after every other member is ready
};

}  // namespace databox::http::testing
