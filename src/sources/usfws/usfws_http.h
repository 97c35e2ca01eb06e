// The request policy of the USFWS image source (docs/sources.md, "usfws"): one GET with the
// source's headers, body limits, and retries on a fixed backoff schedule. Waits go through an
// injectable http::RetryTiming, so tests record them instead of sleeping.
//
// Failures are values that say whether retries ran out (a detail page is then kept as
// unavailable) or the request failed for good (the run aborts). Their reasons never hold URLs,
// queries or upstream text.
#pragma once

#include <chrono>
#include <cstddef>
#include <expected>
#include <optional>
#include <string>

#include "http/retry.h"
#include "http/transport.h"

namespace databox::source {

inline constexpr std::size_t kSearchBodyLimit = std::size_t{8} << 20;  //!< search responses
inline constexpr std::size_t kDetailBodyLimit = std::size_t{4} << 20;  //!< detail pages

enum class FetchFailure {
  kRetriesExhausted,  //!< every attempt met a transient failure (no status, 429, >= 500)
  kFinal,             //!< not retried: another status, or a body limit broken
};

struct FetchError {
  FetchFailure failure = FetchFailure::kFinal;
  std::string reason;  //!< "HTTP 404", "no HTTP status (network)", "empty body", ...
  int attempts = 0;
};

struct RequestPolicy {
  int max_attempts = 6;                                         //!< 1..6, the first try included
  std::chrono::milliseconds timeout{std::chrono::seconds(30)};  //!< per attempt
  std::string user_agent;  //!< names Databox and the operator's contact
};

//! The wait before attempt `failed_attempt + 1`: min(max(min(2^(n-1), 30), retry_after), 30)
//! seconds for n = failed_attempt (1-based). `retry_after` is the server's wait, if it gave one.
std::chrono::milliseconds RetryWait(int failed_attempt,
                                    std::optional<std::chrono::milliseconds> retry_after);

//! GETs URLs through one transport under one policy. Used by one thread at a time.
class UsfwsFetcher {
 public:
  //! `transport` and `timing` are not owned and must outlive the fetcher.
  UsfwsFetcher(http::Transport& transport, RequestPolicy policy, http::RetryTiming& timing)
      : transport_(transport), policy_(std::move(policy)), timing_(timing) {}

  //! The body of a 2xx response to GET `url`, after at most policy.max_attempts attempts.
  //! Transient (retried): no HTTP status (transport failure, a request a recording does not
  //! hold), 429, >= 500. Final at once: any other status; a Content-Length that is not an
  //! integer, is negative or is over `max_body_bytes`; a body over `max_body_bytes`; an empty
  //! body.
  std::expected<std::string, FetchError> Get(const std::string& url, std::size_t max_body_bytes);

 private:
  http::Transport& transport_;
  RequestPolicy policy_;
  http::RetryTiming& timing_;
};

}  // namespace databox::source
