// A loopback HTTP/1.1 fault proxy for the dependency-fault tests: listens on 127.0.0.1 on an
// ephemeral port, forwards every request to one upstream server (the REST catalog, the S3
// store) and, by a schedule the test sets, injects faults into chosen requests instead.
//
// Forwarding keeps the request bytes as the client sent them (method, target, every header
// including Host, the body with its Content-Length or chunked framing), so an S3 SigV4
// signature made for the proxy's address still verifies upstream: the client signs the Host it
// talks to, the proxy's. The one change: "Expect: 100-continue" is answered by the proxy and
// dropped from the forwarded head. Each forwarded request uses a new upstream connection; the
// client's connection is kept alive unless the upstream answer ends with the connection.
#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <regex>
#include <string>
#include <thread>
#include <vector>

namespace databox::reliability {

enum class FaultKind {
  kDropBeforeForward,  //!< close the client connection after reading the request head
  kDropAfterForward,   //!< forward, read the whole answer, close without answering
  kStatus,             //!< answer `status` (with Retry-After when set) without forwarding
  kSlow,               //!< forward, then hold the answer for `delay` (past the client timeout)
  kTruncate,           //!< forward, send the head and half the body, close
};

//! The name used in logs and messages, e.g. "drop-after-forward".
const char* FaultKindName(FaultKind kind);

struct Fault {
  FaultKind kind = FaultKind::kStatus;
  int status = 503;                    //!< kStatus
  std::string retry_after;             //!< kStatus: Retry-After value; empty = no header
  std::chrono::milliseconds delay{0};  //!< kSlow
};

//! Injects `fault` into the matching requests number first .. first + count - 1 (1-based,
//! counted per rule); count < 0 = every matching request from `first` on.
struct FaultRule {
  std::string method;      //!< exact method; empty = any
  std::string path_regex;  //!< searched in the request target (path and query)
  int first = 1;
  int count = 1;
  Fault fault;
};

//! One request the proxy saw.
struct ProxiedRequest {
  std::string method;
  std::string target;
  std::string outcome;  //!< "HTTP <status>" forwarded, or the injected fault's name
};

class FaultProxy {
 public:
  //! Starts listening; `upstream_port` is on 127.0.0.1. Throws std::runtime_error when the
  //! socket cannot be set up.
  explicit FaultProxy(int upstream_port);
  ~FaultProxy();
  FaultProxy(const FaultProxy&) = delete;
  FaultProxy& operator=(const FaultProxy&) = delete;

  int port() const { return port_; }
  //! http://127.0.0.1:<port>
  std::string Url() const;

  //! Replaces the schedule and resets its counters, the injected count and the log.
  void SetRules(std::vector<FaultRule> rules);
  //! Faults injected since the last SetRules.
  int injected() const { return injected_; }
  //! Requests seen since the last SetRules, in arrival order.
  std::vector<ProxiedRequest> log() const;

 private:
  struct Rule {
    FaultRule spec;
    std::regex pattern;
    int matched = 0;
  };

  void AcceptLoop();
  void Serve(int client_fd);
  //! The fault for a request (counting it against every matching rule), or nullptr.
  const Fault* Schedule(const std::string& method, const std::string& target, Fault& storage);
  void Record(ProxiedRequest entry);

  int upstream_port_;
  int listen_fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  std::atomic<int> injected_{0};
  mutable std::mutex mutex_;
  std::vector<Rule> rules_;           //!< guarded by mutex_
  std::vector<ProxiedRequest> log_;   //!< guarded by mutex_
  std::vector<std::thread> workers_;  //!< guarded by mutex_; joined by the destructor
  std::thread acceptor_;              //!< last: starts after every other member is ready
};

}  // namespace databox::reliability
