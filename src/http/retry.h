// When and how long to wait before resending a request.
#pragma once

#include <chrono>
#include <optional>
#include <string_view>

namespace databox::http {

//! Exponential backoff with full jitter, bounded by attempts and by total time.
struct RetryPolicy {
  int max_attempts = 5;                       //!< first try included; 1 = no retry
  std::chrono::milliseconds base_delay{500};  //!< cap of the first backoff
  std::chrono::milliseconds max_delay{std::chrono::seconds(30)};  //!< cap of any one backoff
  //! Time from the first attempt after which no new attempt starts. A Retry-After that would
  //! end past the budget stops retrying instead of being shortened.
  std::chrono::milliseconds total_budget{std::chrono::minutes(2)};
};

//! Time and randomness the retry loop depends on; tests substitute a fake so retries run
//! instantly and deterministically.
class RetryTiming {
 public:
  virtual ~RetryTiming() = default;
  virtual std::chrono::steady_clock::time_point Now() = 0;
  //! Wall-clock time, to resolve a Retry-After given as an HTTP date.
  virtual std::chrono::system_clock::time_point WallNow() = 0;
  virtual void SleepFor(std::chrono::milliseconds duration) = 0;
  //! Uniform in [0, 1), for jitter.
  virtual double Random() = 0;
};

//! Real clocks, real sleep, a per-thread random generator. Thread-safe; lives forever.
RetryTiming& SystemRetryTiming();

//! Full-jitter backoff before retry number `retry` (0 = the first retry):
//! random * min(max_delay, base_delay * 2^retry).
std::chrono::milliseconds BackoffDelay(const RetryPolicy& policy, int retry, double random);

//! The wait a Retry-After value asks for: delta-seconds or an HTTP date (relative to `now`,
//! never negative). nullopt when the value is neither.
std::optional<std::chrono::milliseconds> ParseRetryAfter(std::string_view value,
                                                         std::chrono::system_clock::time_point now);

}  // namespace databox::http
