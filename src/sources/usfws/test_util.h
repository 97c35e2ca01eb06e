// Test helpers of the USFWS module (test-only header): a scripted fws.gov, a retry clock that
// records waits instead of sleeping, and the synthetic fixtures in testdata/.
#pragma once

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "common/test_paths.h"
#include "http/retry.h"
#include "http/transport.h"

namespace databox::source::testing {

//! A Transport answering from scripted outcomes per URL (compared exactly): each request takes
//! the next outcome, the last one repeats; an unscripted URL is a kNotFound error, as a replay
//! miss. Thread-safe; remembers every request.
class ScriptedSite final : public http::Transport {
 public:
  void Add(const std::string& url, http::Response response) { script_[url].push_back(response); }
  void Add(const std::string& url, long status, std::string body, http::Headers headers = {}) {
    Add(url, http::Response{status, std::move(headers), std::move(body)});
  }
  void AddError(const std::string& url, Error error) {
    script_[url].push_back(std::unexpected(std::move(error)));
  }

  Result<http::Response> Send(const http::Request& request, const http::AttemptLimits&) override {
    std::lock_guard lock(mutex_);
    requests_.push_back(request);
    auto it = script_.find(request.url);
    if (it == script_.end()) return MakeError(ErrorKind::kNotFound, "not scripted");
    const std::size_t n = served_[request.url]++;
    return it->second[std::min(n, it->second.size() - 1)];
  }

  std::vector<http::Request> requests() {
    std::lock_guard lock(mutex_);
    return requests_;
  }
  int CountOf(const std::string& url) {
    std::lock_guard lock(mutex_);
    int count = 0;
    for (const auto& r : requests_) count += r.url == url ? 1 : 0;
    return count;
  }

 private:
  std::map<std::string, std::vector<Result<http::Response>>> script_;
  std::map<std::string, std::size_t> served_;
  std::vector<http::Request> requests_;
  std::mutex mutex_;
};

//! A retry clock that never sleeps: waits are recorded; the wall clock is fixed.
class RecordingTiming final : public http::RetryTiming {
 public:
  explicit RecordingTiming(
      std::chrono::system_clock::time_point wall = std::chrono::sys_days{std::chrono::year(2026) /
                                                                         std::chrono::August / 3})
      : wall_(wall) {}
  std::chrono::steady_clock::time_point Now() override { return {}; }
  std::chrono::system_clock::time_point WallNow() override { return wall_; }
  void SleepFor(std::chrono::milliseconds duration) override {
    std::lock_guard lock(mutex_);
    waits_.push_back(duration);
  }
  double Random() override { return 0; }
  //! The recorded waits in whole seconds.
  std::vector<int64_t> WaitSeconds() {
    std::lock_guard lock(mutex_);
    std::vector<int64_t> out;
    for (auto w : waits_)
      out.push_back(std::chrono::duration_cast<std::chrono::seconds>(w).count());
    return out;
  }

 private:
  std::chrono::system_clock::time_point wall_;
  std::mutex mutex_;
  std::vector<std::chrono::milliseconds> waits_;
};

//! The text of testdata/<name>.
inline std::string UsfwsFixture(const std::string& name) {
  std::ifstream in(
      std::filesystem::path(test_paths::SourceDir()) / "src/sources/usfws/testdata" / name,
      std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

//! A search response body: `cards` as `list`, `total`, and a facet entry confirming
//! (facet, value) with count `total`.
inline std::string SearchBody(int64_t total, const std::vector<std::string>& cards,
                              const std::string& facet, const std::string& value) {
  nlohmann::json body;
  body["list"] = cards;
  body["_meta"]["total"] = total;
  body["_meta"]["facets"][facet] = {{{"filter", value}, {"count", total}}};
  return body.dump();
}

}  // namespace databox::source::testing
