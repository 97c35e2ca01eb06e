// Test support: an HTTP/1.1 server on a loopback address for tests of real libcurl behaviour,
// built on cpp-httplib (Debian's libcpp-httplib-dev; a test program that includes this links
// PkgConfig::HTTPLIB). It answers every request with what a test's handler returns, keeps the
// connection open between requests and records what arrived. Like every httplib::Server, it
// sets SIGPIPE to be ignored in the test process (httplib writes without MSG_NOSIGNAL).
#pragma once

#include <httplib.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <functional>
#include <mutex>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "http/message.h"

namespace databox::http::testing {

struct ReceivedRequest {
  std::string method;
  std::string target;  //!< path and query as sent
  Headers headers;     //!< sorted by name, as httplib keeps them; one name's in arrival order
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

  //! Listens on `host` port 0 (another loopback address, such as 127.0.0.2, is another origin)
  //! and returns once the server accepts connections.
  explicit LoopbackServer(Handler handler, std::string host = "127.0.0.1")
      : handler_(std::move(handler)), host_(std::move(host)) {
    server_.new_task_queue = [this] { return new CountingPool(connections_); };
    server_.set_keep_alive_max_count(kMaxRequestsPerConnection);
    // httplib reads a request's body only for a request a route takes: take every path of every
    // method and answer in the post-routing handler (below).
    const auto take = [](const httplib::Request&, httplib::Response& out) { out.status = kTaken; };
    server_.Get(".*", take);  // and HEAD
    server_.Post(".*", take);
    server_.Put(".*", take);
    server_.Patch(".*", take);
    server_.Delete(".*", take);
    server_.Options(".*", take);
    server_.set_post_routing_handler(
        [this](const httplib::Request& in, httplib::Response& out) { Answer(in, out); });
    port_ = server_.bind_to_any_port(host_);
    if (port_ < 0) throw std::runtime_error("LoopbackServer cannot listen on " + host_);
    thread_ = std::thread([this] {
      server_.listen_after_bind();
      listen_ended_ = true;
    });
    // stop() does nothing until the listening thread runs.
    while (!server_.is_running() && !listen_ended_) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }

  //! Stops at once, cutting short a reply's delay. A client that still holds an idle connection
  //! delays this by httplib's keep-alive wait (5 s): let clients go first.
  ~LoopbackServer() {
    stopping_ = true;
    server_.stop();
    thread_.join();
  }
  LoopbackServer(const LoopbackServer&) = delete;
  LoopbackServer& operator=(const LoopbackServer&) = delete;

  int port() const { return port_; }
  std::string Url(std::string_view target) const {
    return "http://" + host_ + ":" + std::to_string(port_) + std::string(target);
  }
  //! Connections accepted so far.
  int connections() const { return connections_; }
  std::vector<ReceivedRequest> received() const {
    std::lock_guard lock(mutex_);
    return received_;
  }

  //! A port of 127.0.0.1 on which nothing listens: a server's, once it has stopped.
  static int ClosedPort() {
    return LoopbackServer([](const ReceivedRequest&, int) { return Reply{}; }).port();
  }

 private:
  //! The status a route gives a request it took; the post-routing handler replaces it. httplib's
  //! own answers (400 for what it cannot parse, 404 for an unknown method, ...) keep theirs.
  static constexpr int kTaken = 0;
  //! One connection carries every request of a test, as long as the client keeps it.
  static constexpr std::size_t kMaxRequestsPerConnection = 100000;

  //! httplib's worker pool, counting what it is given: one task per accepted connection.
  class CountingPool final : public httplib::ThreadPool {
   public:
    explicit CountingPool(std::atomic<int>& count) : ThreadPool(4), count_(count) {}
    void enqueue(std::function<void()> task) override {
      ++count_;
      ThreadPool::enqueue(std::move(task));
    }

   private:
    std::atomic<int>& count_;
  };

  //! Records the request and answers with the handler's reply. This runs after httplib has
  //! shaped the response (a default Content-Type, compression when the client accepts it, Range)
  //! and before it is written, so the reply goes out as the handler wrote it: its status, its
  //! headers, Content-Length and its body (none for HEAD), plus httplib's Keep-Alive or
  //! Connection field.
  void Answer(const httplib::Request& in, httplib::Response& out) {
    if (out.status != kTaken) return;
    ReceivedRequest request{in.method, in.target, {}, in.body};
    for (const auto& [name, value] : in.headers) {
      // httplib adds the connection's addresses as fields of its own.
      if (name != "REMOTE_ADDR" && name != "REMOTE_PORT" && name != "LOCAL_ADDR" &&
          name != "LOCAL_PORT") {
        request.headers.Add(name, value);
      }
    }
    int index;
    {
      std::lock_guard lock(mutex_);
      received_.push_back(request);
      index = static_cast<int>(received_.size()) - 1;
    }
    Reply reply = handler_(request, index);
    for (auto waited = std::chrono::milliseconds(0); waited < reply.delay && !stopping_;
         waited += std::chrono::milliseconds(10)) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    httplib::Headers headers;
    for (const char* kept : {"Connection", "Keep-Alive"}) {
      if (out.has_header(kept)) headers.emplace(kept, out.get_header_value(kept));
    }
    for (const auto& [name, value] : reply.headers.fields()) headers.emplace(name, value);
    headers.emplace("Content-Length", std::to_string(reply.body.size()));
    out.status = reply.status;
    out.headers = std::move(headers);
    out.body = std::move(reply.body);
  }

  Handler handler_;
  std::string host_;
  int port_ = -1;
  std::atomic<bool> stopping_{false};
  std::atomic<bool> listen_ended_{false};
  std::atomic<int> connections_{0};
  mutable std::mutex mutex_;
  std::vector<ReceivedRequest> received_;  //!< guarded by mutex_
  httplib::Server server_;
  std::thread thread_;  //!< last: starts after every other member is ready
};

}  // namespace databox::http::testing
