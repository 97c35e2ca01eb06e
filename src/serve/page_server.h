// The HTTP server behind `databox serve`: listens on 127.0.0.1 only (never another address) and
// answers GET and HEAD, one connection at a time, with what a handler returns for the path;
// every connection is closed after its answer. Deliberately small: no keep-alive, no request
// bodies, a request head of at most 16 KiB sent within 5 s, anything else answered 400 or 405.
#pragma once

#include <csignal>
#include <functional>
#include <string>
#include <string_view>

#include "common/error.h"

namespace databox::serve {

struct PageReply {
  int status = 200;
  std::string content_type = "text/html; charset=utf-8";
  std::string body;
};

//! The reply for `path` (the request target without its query).
using PageHandler = std::function<PageReply(std::string_view path)>;

class PageServer {
 public:
  //! Listens on 127.0.0.1:`port` (0: a free port the system picks). A kIo error naming the
  //! port when it cannot (in use, or below 1024 without privileges).
  static Result<PageServer> Listen(int port);

  PageServer(PageServer&& other) noexcept : fd_(other.fd_), port_(other.port_) { other.fd_ = -1; }
  PageServer& operator=(PageServer&&) = delete;
  ~PageServer();

  int port() const { return port_; }

  //! Answers requests until `stop` becomes non-zero (checked at least every 200 ms).
  void Serve(const PageHandler& handler, const volatile std::sig_atomic_t& stop) const;

 private:
  PageServer(int fd, int port) : fd_(fd), port_(port) {}

  int fd_ = -1;
  int port_ = 0;
};

}  // namespace databox::serve
