// The HTTP server behind `databox serve` (cpp-httplib, Debian's libcpp-httplib-dev): listens on
// 127.0.0.1 only (never another address) and answers GET and HEAD, one request at a time, with
// what a handler returns for the path; every connection is closed after its answer. Anything
// else is answered 405 (another method) or 400 (not a request), a request that is not sent
// within 5 s is dropped.
#pragma once

#include <csignal>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "common/error.h"

namespace httplib {
class Server;
}

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

  PageServer(PageServer&& other) noexcept;
  PageServer& operator=(PageServer&&) = delete;
  ~PageServer();

  int port() const { return port_; }

  //! Answers requests until `stop` becomes non-zero (checked every 200 ms), then lets the request
  //! being answered finish and closes the port. SIGINT and SIGTERM reach the calling thread, never
  //! the server's.
  void Serve(const PageHandler& handler, const volatile std::sig_atomic_t& stop);

 private:
  PageServer(std::unique_ptr<httplib::Server> server, int port);

  std::unique_ptr<httplib::Server> server_;
  int port_ = 0;
};

}  // namespace databox::serve
