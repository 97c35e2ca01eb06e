#include "fault_proxy.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <utility>

namespace databox::reliability {
namespace {

//! A connection that goes quiet this long is closed.
constexpr auto kIdleLimit = std::chrono::seconds(60);
//! How often blocked reads and sleeps look at the stop flag.
constexpr int kPollMs = 20;

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  return std::ranges::equal(a, b, [](char x, char y) {
    return std::tolower(static_cast<unsigned char>(x)) ==
           std::tolower(static_cast<unsigned char>(y));
  });
}

std::string Lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

//! A socket with a read buffer; reads give up when the proxy stops or the peer idles.
class Connection {
 public:
  Connection(int fd, const std::atomic<bool>& stop) : fd_(fd), stop_(stop) {}
  ~Connection() {
    ::shutdown(fd_, SHUT_RDWR);
    ::close(fd_);
  }
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  //! Removes and returns the bytes up to and including `delimiter`.
  std::optional<std::string> ReadUntil(std::string_view delimiter) {
    std::size_t pos;
    while ((pos = buffer_.find(delimiter)) == std::string::npos) {
      if (!Fill()) return std::nullopt;
    }
    return Take(pos + delimiter.size());
  }
  std::optional<std::string> ReadExact(std::size_t n) {
    while (buffer_.size() < n) {
      if (!Fill()) return std::nullopt;
    }
    return Take(n);
  }
  std::string ReadToClose() {
    while (Fill()) {
    }
    return Take(buffer_.size());
  }
  bool Send(std::string_view bytes) {
    while (!bytes.empty()) {
      const ssize_t n = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
      if (n <= 0) return false;
      bytes.remove_prefix(static_cast<std::size_t>(n));
    }
    return true;
  }

 private:
  bool Fill() {
    const auto deadline = std::chrono::steady_clock::now() + kIdleLimit;
    while (!stop_ && std::chrono::steady_clock::now() < deadline) {
      pollfd entry{fd_, POLLIN, 0};
      if (::poll(&entry, 1, kPollMs) <= 0) continue;
      char chunk[16384];
      const ssize_t n = ::recv(fd_, chunk, sizeof chunk, 0);
      if (n <= 0) return false;
      buffer_.append(chunk, static_cast<std::size_t>(n));
      return true;
    }
    return false;
  }
  std::string Take(std::size_t n) {
    std::string out = buffer_.substr(0, n);
    buffer_.erase(0, n);
    return out;
  }

  int fd_;
  const std::atomic<bool>& stop_;
  std::string buffer_;
};

//! A request or response head: the start line and the header fields, plus the raw bytes.
struct Head {
  std::string raw;  //!< including the final blank line
  std::string start_line;
  std::vector<std::pair<std::string, std::string>> fields;

  std::optional<std::string> Get(std::string_view name) const {
    for (const auto& [n, v] : fields) {
      if (EqualsIgnoreCase(n, name)) return v;
    }
    return std::nullopt;
  }
  //! `raw` without the field `name`.
  void Remove(std::string_view name) {
    std::string rebuilt = start_line + "\r\n";
    std::erase_if(fields, [&](const auto& f) { return EqualsIgnoreCase(f.first, name); });
    for (const auto& [n, v] : fields) rebuilt += n + ": " + v + "\r\n";
    raw = rebuilt + "\r\n";
  }
};

std::optional<Head> ReadHead(Connection& conn) {
  auto raw = conn.ReadUntil("\r\n\r\n");
  if (!raw) return std::nullopt;
  Head head;
  head.raw = *raw;
  std::string_view rest(head.raw);
  bool first = true;
  while (!rest.empty()) {
    const std::size_t end = rest.find("\r\n");
    std::string_view line = rest.substr(0, end);
    rest.remove_prefix(end + 2);
    if (line.empty()) break;
    if (first) {
      head.start_line = std::string(line);
      first = false;
      continue;
    }
    const std::size_t colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    std::string_view value = line.substr(colon + 1);
    while (!value.empty() && (value.front() == ' ' || value.front() == '\t'))
      value.remove_prefix(1);
    while (!value.empty() && (value.back() == ' ' || value.back() == '\t')) value.remove_suffix(1);
    head.fields.emplace_back(std::string(line.substr(0, colon)), std::string(value));
  }
  return head;
}

struct Body {
  std::string bytes;         //!< as framed on the wire (chunked stays chunked)
  bool until_close = false;  //!< framed by the end of the connection
};

//! Reads the body that follows `head`. `response` bodies without framing run to the close.
std::optional<Body> ReadBody(Connection& conn, const Head& head, bool response, bool no_body) {
  Body body;
  if (no_body) return body;
  if (Lower(head.Get("Transfer-Encoding").value_or("")).find("chunked") != std::string::npos) {
    while (true) {
      auto size_line = conn.ReadUntil("\r\n");
      if (!size_line) return std::nullopt;
      body.bytes += *size_line;
      const std::size_t size = std::stoul(*size_line, nullptr, 16);
      if (size == 0) {
        // Trailer fields, then the blank line.
        while (true) {
          auto line = conn.ReadUntil("\r\n");
          if (!line) return std::nullopt;
          body.bytes += *line;
          if (*line == "\r\n") return body;
        }
      }
      auto data = conn.ReadExact(size + 2);
      if (!data) return std::nullopt;
      body.bytes += *data;
    }
  }
  if (auto length = head.Get("Content-Length")) {
    auto data = conn.ReadExact(std::stoul(*length));
    if (!data) return std::nullopt;
    body.bytes = std::move(*data);
    return body;
  }
  if (!response) return body;
  body.bytes = conn.ReadToClose();
  body.until_close = true;
  return body;
}

int StatusOf(const Head& response) {
  const std::size_t space = response.start_line.find(' ');
  if (space == std::string::npos) return 0;
  return std::atoi(response.start_line.c_str() + space + 1);
}

int ConnectUpstream(int port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return -1;
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = htons(static_cast<uint16_t>(port));
  if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

std::string Reason(int status) {
  switch (status) {
    case 429:
      return "Too Many Requests";
    case 500:
      return "Internal Server Error";
    case 502:
      return "Bad Gateway";
    case 503:
      return "Service Unavailable";
    default:
      return "Fault";
  }
}

//! An error answer in the Iceberg REST error model (S3 clients only read the status of it).
std::string StatusAnswer(int status, const std::string& retry_after) {
  const std::string body = R"({"error":{"message":"fault injected by the reliability proxy",)"
                           R"("type":"InjectedFault","code":)" +
                           std::to_string(status) + "}}";
  std::string out = "HTTP/1.1 " + std::to_string(status) + " " + Reason(status) + "\r\n";
  out += "Content-Type: application/json\r\n";
  if (!retry_after.empty()) out += "Retry-After: " + retry_after + "\r\n";
  out += "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
  return out;
}

}  // namespace

const char* FaultKindName(FaultKind kind) {
  switch (kind) {
    case FaultKind::kDropBeforeForward:
      return "drop-before-forward";
    case FaultKind::kDropAfterForward:
      return "drop-after-forward";
    case FaultKind::kStatus:
      return "status";
    case FaultKind::kSlow:
      return "slow";
    case FaultKind::kTruncate:
      return "truncate";
  }
  return "?";
}

FaultProxy::FaultProxy(int upstream_port) : upstream_port_(upstream_port) {
  listen_fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
  if (listen_fd_ < 0) throw std::runtime_error("fault proxy: socket() failed");
  int on = 1;
  ::setsockopt(listen_fd_, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = 0;
  socklen_t length = sizeof address;
  if (::bind(listen_fd_, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
      ::listen(listen_fd_, 64) != 0 ||
      ::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
    ::close(listen_fd_);
    throw std::runtime_error("fault proxy: cannot listen on 127.0.0.1");
  }
  port_ = ntohs(address.sin_port);
  acceptor_ = std::thread([this] { AcceptLoop(); });
}

FaultProxy::~FaultProxy() {
  stop_ = true;
  acceptor_.join();
  ::close(listen_fd_);
  std::vector<std::thread> workers;
  {
    std::lock_guard lock(mutex_);
    workers.swap(workers_);
  }
  for (auto& worker : workers) worker.join();
}

std::string FaultProxy::Url() const { return "http://127.0.0.1:" + std::to_string(port_); }

void FaultProxy::SetRules(std::vector<FaultRule> rules) {
  std::lock_guard lock(mutex_);
  rules_.clear();
  for (auto& spec : rules) {
    std::regex pattern(spec.path_regex);
    rules_.push_back(Rule{std::move(spec), std::move(pattern), 0});
  }
  log_.clear();
  injected_ = 0;
}

std::vector<ProxiedRequest> FaultProxy::log() const {
  std::lock_guard lock(mutex_);
  return log_;
}

void FaultProxy::Record(ProxiedRequest entry) {
  std::lock_guard lock(mutex_);
  log_.push_back(std::move(entry));
}

const Fault* FaultProxy::Schedule(const std::string& method, const std::string& target,
                                  Fault& storage) {
  std::lock_guard lock(mutex_);
  const Fault* chosen = nullptr;
  for (auto& rule : rules_) {
    if (!rule.spec.method.empty() && rule.spec.method != method) continue;
    if (!std::regex_search(target, rule.pattern)) continue;
    const int n = ++rule.matched;
    const bool in_window =
        n >= rule.spec.first && (rule.spec.count < 0 || n < rule.spec.first + rule.spec.count);
    if (in_window && chosen == nullptr) {
      storage = rule.spec.fault;
      chosen = &storage;
    }
  }
  if (chosen != nullptr) ++injected_;
  return chosen;
}

void FaultProxy::AcceptLoop() {
  while (!stop_) {
    pollfd entry{listen_fd_, POLLIN, 0};
    if (::poll(&entry, 1, kPollMs) <= 0) continue;
    const int fd = ::accept(listen_fd_, nullptr, nullptr);
    if (fd < 0) continue;
    std::lock_guard lock(mutex_);
    workers_.emplace_back([this, fd] { Serve(fd); });
  }
}

void FaultProxy::Serve(int client_fd) {
  Connection client(client_fd, stop_);
  while (!stop_) {
    auto request = ReadHead(client);
    if (!request) return;
    const std::string& line = request->start_line;
    const std::size_t first_space = line.find(' ');
    const std::size_t second_space = line.find(' ', first_space + 1);
    if (first_space == std::string::npos || second_space == std::string::npos) return;
    const std::string method = line.substr(0, first_space);
    const std::string target = line.substr(first_space + 1, second_space - first_space - 1);

    if (Lower(request->Get("Expect").value_or("")) == "100-continue") {
      request->Remove("Expect");
      if (!client.Send("HTTP/1.1 100 Continue\r\n\r\n")) return;
    }
    Fault storage;
    const Fault* fault = Schedule(method, target, storage);
    if (fault != nullptr && fault->kind == FaultKind::kDropBeforeForward) {
      Record({method, target, FaultKindName(fault->kind)});
      return;
    }
    auto request_body = ReadBody(client, *request, /*response=*/false, /*no_body=*/false);
    if (!request_body) return;
    if (fault != nullptr && fault->kind == FaultKind::kStatus) {
      Record({method, target, "injected HTTP " + std::to_string(fault->status)});
      if (!client.Send(StatusAnswer(fault->status, fault->retry_after))) return;
      continue;
    }

    const int upstream_fd = ConnectUpstream(upstream_port_);
    if (upstream_fd < 0) {
      Record({method, target, "upstream unreachable"});
      client.Send(StatusAnswer(502, ""));
      return;
    }
    Connection upstream(upstream_fd, stop_);
    if (!upstream.Send(request->raw) || !upstream.Send(request_body->bytes)) {
      Record({method, target, "upstream write failed"});
      return;
    }
    std::optional<Head> response;
    do {
      response = ReadHead(upstream);
    } while (response && StatusOf(*response) >= 100 && StatusOf(*response) < 200);
    if (!response) {
      Record({method, target, "upstream closed"});
      return;
    }
    const int status = StatusOf(*response);
    const bool no_body = method == "HEAD" || status == 204 || status == 304;
    auto response_body = ReadBody(upstream, *response, /*response=*/true, no_body);
    if (!response_body) {
      Record({method, target, "upstream body lost"});
      return;
    }

    const std::string answered = "HTTP " + std::to_string(status);
    if (fault == nullptr) {
      Record({method, target, answered});
      if (!client.Send(response->raw) || !client.Send(response_body->bytes)) return;
      const bool closes =
          response_body->until_close || Lower(response->Get("Connection").value_or("")) == "close";
      if (closes) return;
      continue;
    }
    Record(
        {method, target, std::string(FaultKindName(fault->kind)) + " (upstream " + answered + ")"});
    switch (fault->kind) {
      case FaultKind::kSlow: {
        const auto until = std::chrono::steady_clock::now() + fault->delay;
        while (!stop_ && std::chrono::steady_clock::now() < until) {
          std::this_thread::sleep_for(std::chrono::milliseconds(kPollMs));
        }
        client.Send(response->raw);
        client.Send(response_body->bytes);
        return;
      }
      case FaultKind::kTruncate:
        client.Send(response->raw);
        client.Send(
            std::string_view(response_body->bytes).substr(0, response_body->bytes.size() / 2));
        return;
      default:  // kDropAfterForward: the upstream acted, the client never hears of it
        return;
    }
  }
}

}  // namespace databox::reliability
