#include "http/retry.h"

#include <curl/curl.h>

#include <algorithm>
#include <charconv>
#include <random>
#include <string>
#include <thread>

namespace databox::http {
namespace {

class SystemTiming final : public RetryTiming {
 public:
  std::chrono::steady_clock::time_point Now() override { return std::chrono::steady_clock::now(); }
  std::chrono::system_clock::time_point WallNow() override {
    return std::chrono::system_clock::now();
  }
  void SleepFor(std::chrono::milliseconds duration) override {
    std::this_thread::sleep_for(duration);
  }
  double Random() override {
    thread_local std::mt19937_64 generator{std::random_device{}()};
    return std::uniform_real_distribution<double>(0.0, 1.0)(generator);
  }
};

std::string_view Trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

}  // namespace

RetryTiming& SystemRetryTiming() {
  static SystemTiming* timing = new SystemTiming();
  return *timing;
}

std::chrono::milliseconds BackoffDelay(const RetryPolicy& policy, int retry, double random) {
  // Doubling stops once past max_delay, so the shift never overflows.
  std::chrono::milliseconds cap = policy.base_delay;
  for (int i = 0; i < retry && cap < policy.max_delay; ++i) cap *= 2;
  cap = std::min(cap, policy.max_delay);
  double clamped = std::clamp(random, 0.0, 1.0);
  return std::chrono::milliseconds(
      static_cast<long long>(clamped * static_cast<double>(cap.count())));
}

std::optional<std::chrono::milliseconds> ParseRetryAfter(
    std::string_view value, std::chrono::system_clock::time_point now) {
  value = Trim(value);
  if (value.empty()) return std::nullopt;
  long long seconds = 0;
  auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), seconds);
  if (error == std::errc() && end == value.data() + value.size()) {
    if (seconds < 0) return std::nullopt;
    return std::chrono::seconds(seconds);
  }
  // curl_getdate understands the three date formats HTTP allows (RFC 9110 section 5.6.7).
  std::string text(value);
  time_t when = curl_getdate(text.c_str(), nullptr);
  if (when == -1) return std::nullopt;
  auto delta = std::chrono::system_clock::from_time_t(when) - now;
  if (delta < std::chrono::system_clock::duration::zero()) return std::chrono::milliseconds(0);
  return std::chrono::duration_cast<std::chrono::milliseconds>(delta);
}

}  // namespace databox::http
