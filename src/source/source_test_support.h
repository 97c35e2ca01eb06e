// Fakes and helpers for the source modules' tests only (header-only; not part of the API).
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <mutex>
#include <string>
#include <vector>

#include "http/transport.h"

namespace databox::source::testing {

//! A Transport answering every request with a caller-given function; remembers requests.
class FakeTransport final : public http::Transport {
 public:
  using Handler = std::function<http::Response(const http::Request&)>;
  explicit FakeTransport(Handler handler) : handler_(std::move(handler)) {}

  Result<http::Response> Send(const http::Request& request, const http::AttemptLimits&) override {
    std::lock_guard lock(mutex_);
    requests_.push_back(request);
    return handler_(request);
  }
  std::vector<http::Request> requests() {
    std::lock_guard lock(mutex_);
    return requests_;
  }

 private:
  Handler handler_;
  std::mutex mutex_;
  std::vector<http::Request> requests_;
};

//! Writes `bytes` to `path` (replacing it).
inline void WriteBytes(const std::filesystem::path& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  ASSERT_TRUE(out.good());
}

//! The bytes of the file at `path` ("" when it cannot be read).
inline std::string ReadBytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

//! The value of query parameter `name` in `url` (raw, undecoded), or "" when absent.
inline std::string QueryParam(const std::string& url, const std::string& name) {
  const std::size_t q = url.find('?');
  if (q == std::string::npos) return "";
  std::size_t pos = q + 1;
  while (pos < url.size()) {
    std::size_t amp = url.find('&', pos);
    if (amp == std::string::npos) amp = url.size();
    const std::string pair = url.substr(pos, amp - pos);
    const std::size_t eq = pair.find('=');
    if (pair.substr(0, eq) == name) return eq == std::string::npos ? "" : pair.substr(eq + 1);
    pos = amp + 1;
  }
  return "";
}

}  // namespace databox::source::testing
