#include "serve/page_server.h"

#include <fcntl.h>
#include <httplib.h>
#include <pthread.h>
#include <sys/socket.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>
#include <utility>

namespace databox::serve {
namespace {

constexpr auto kPoll = std::chrono::milliseconds(200);
constexpr time_t kReadSeconds = 5;
//! The server reads no request bodies; a larger one is refused before it is read.
constexpr std::size_t kMaxBody = 16 * 1024;

PageReply Plain(int status, std::string text) {
  return {status, "text/plain; charset=utf-8", std::move(text) + "\n"};
}

void Fill(httplib::Response& response, const PageReply& reply) {
  response.status = reply.status;
  response.set_content(reply.body, reply.content_type.c_str());
}

//! The listening socket: the address may be taken again at once after a stop (but not while
//! another server listens on it), and a refresh the scheduler starts does not inherit it.
void ListeningSocketOptions(int fd) {
  const int yes = 1;
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  fcntl(fd, F_SETFD, fcntl(fd, F_GETFD) | FD_CLOEXEC);
}

}  // namespace

Result<PageServer> PageServer::Listen(int port) {
  auto server = std::make_unique<httplib::Server>();
  server->set_address_family(AF_INET);
  server->set_socket_options(ListeningSocketOptions);
  server->new_task_queue = [] { return new httplib::ThreadPool(1); };  // one request at a time
  server->set_keep_alive_max_count(1);                                 // close after each answer
  server->set_read_timeout(kReadSeconds);
  server->set_payload_max_length(kMaxBody);
  server->set_default_headers(
      {{"Cache-Control", "no-store"}, {"X-Content-Type-Options", "nosniff"}});
  // httplib answers what it cannot parse with an empty 400 (or 413, 414); say what it was.
  server->set_error_handler(httplib::Server::HandlerWithResponse(
      [](const httplib::Request&, httplib::Response& response) {
        if (!response.body.empty()) return httplib::Server::HandlerResponse::Unhandled;
        Fill(response, Plain(response.status, "bad request"));
        return httplib::Server::HandlerResponse::Handled;
      }));
  errno = 0;
  const int bound = port == 0 ? server->bind_to_any_port("127.0.0.1")
                              : (server->bind_to_port("127.0.0.1", port) ? port : -1);
  if (bound < 0) {
    const std::string reason = errno != 0 ? strerror(errno) : "cannot bind";
    return MakeError(ErrorKind::kIo, "cannot listen on 127.0.0.1:" + std::to_string(port) + ": " +
                                         reason + " (choose another --port)");
  }
  return PageServer(std::move(server), bound);
}

PageServer::PageServer(std::unique_ptr<httplib::Server> server, int port)
    : server_(std::move(server)), port_(port) {}

PageServer::PageServer(PageServer&& other) noexcept = default;

PageServer::~PageServer() = default;

void PageServer::Serve(const PageHandler& handler, const volatile std::sig_atomic_t& stop) {
  server_->set_pre_routing_handler(
      [&handler](const httplib::Request& request, httplib::Response& response) {
        if (request.method == "GET" || request.method == "HEAD") {
          Fill(response, handler(request.path));  // httplib leaves out the body of a HEAD
        } else {
          Fill(response, Plain(405, "only GET and HEAD"));
        }
        return httplib::Server::HandlerResponse::Handled;
      });
  // The listening thread and its worker start with SIGINT and SIGTERM blocked.
  sigset_t signals;
  sigset_t previous;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, &previous);
  std::atomic<bool> ended = false;
  std::thread listening([&] {
    server_->listen_after_bind();
    ended = true;
  });
  pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  while (!stop && !ended) std::this_thread::sleep_for(kPoll);
  // stop() does nothing until the listening thread runs: repeat it until that thread ended.
  while (!ended) {
    server_->stop();
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  listening.join();
}

}  // namespace databox::serve
