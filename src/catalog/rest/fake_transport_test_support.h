// Test-only: an http::Transport that answers from a route table and records every request,
// standing in for a catalog server in unit tests.
#pragma once

#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "http/transport.h"

namespace databox::catalog::rest::testing {

class FakeTransport final : public http::Transport {
 public:
  using Answer = Result<http::Response>;

  //! Queues an answer for "METHOD path" (path = URL after the host, query included when
  //! `route` has a '?', else compared without the query). Answers are served in order and the
  //! last one repeats until another is queued.
  void On(const std::string& route, Answer answer) {
    std::lock_guard lock(mutex_);
    Queue& queue = routes_[route];
    if (queue.last_served) queue.answers.clear();
    queue.last_served = false;
    queue.answers.push_back(std::move(answer));
  }
  void On(const std::string& route, long status, std::string body = "") {
    http::Response response;
    response.status = status;
    response.body = std::move(body);
    On(route, Answer(std::move(response)));
  }

  Answer Send(const http::Request& request, const http::AttemptLimits&) override {
    std::lock_guard lock(mutex_);
    requests_.push_back(request);
    const std::string target = Target(request.url);
    const std::string method(http::MethodName(request.method));
    for (const std::string& key :
         {method + " " + target, method + " " + target.substr(0, target.find('?'))}) {
      auto it = routes_.find(key);
      if (it == routes_.end()) continue;
      Queue& queue = it->second;
      Answer answer = queue.answers.front();
      if (queue.answers.size() > 1) {
        queue.answers.pop_front();
      } else {
        queue.last_served = true;
      }
      return answer;
    }
    http::Response missing;
    missing.status = 404;
    missing.body = R"({"error":{"message":"no route )" + method + " " + target +
                   R"(","type":"NoSuchRouteInFake","code":404}})";
    return missing;
  }

  std::vector<http::Request> requests() const {
    std::lock_guard lock(mutex_);
    return requests_;
  }
  //! Requests whose "METHOD path" (query dropped) equals `route`.
  std::vector<http::Request> RequestsTo(const std::string& route) const {
    std::vector<http::Request> out;
    for (const auto& request : requests()) {
      const std::string target = Target(request.url);
      if (std::string(http::MethodName(request.method)) + " " +
              target.substr(0, target.find('?')) ==
          route) {
        out.push_back(request);
      }
    }
    return out;
  }

  //! "/path?query" of an absolute URL.
  static std::string Target(const std::string& url) {
    const auto scheme = url.find("://");
    const auto slash = url.find('/', scheme == std::string::npos ? 0 : scheme + 3);
    return slash == std::string::npos ? "/" : url.substr(slash);
  }

 private:
  struct Queue {
    std::deque<Answer> answers;
    bool last_served = false;  //!< the only answer left was served; a new On() replaces it
  };

  mutable std::mutex mutex_;
  std::map<std::string, Queue> routes_;
  std::vector<http::Request> requests_;
};

}  // namespace databox::catalog::rest::testing
