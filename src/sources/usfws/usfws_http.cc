#include "sources/usfws/usfws_http.h"

#include <algorithm>
#include <charconv>

namespace databox::source {
namespace {

constexpr std::chrono::seconds kMaxWait{30};

//! What one attempt came to.
struct Attempt {
  std::optional<FetchError> error;  //!< set on failure
  bool transient = false;
  std::optional<std::chrono::milliseconds> retry_after;
};

Attempt Fail(bool transient, std::string reason) {
  Attempt attempt;
  attempt.error = FetchError{FetchFailure::kFinal, std::move(reason), 0};
  attempt.transient = transient;
  return attempt;
}

//! The problem with a 2xx response's Content-Length and body, if any.
std::optional<std::string> BodyProblem(const http::Response& response, std::size_t limit) {
  if (auto length = response.headers.Get("Content-Length")) {
    int64_t value = 0;
    auto [end, ec] = std::from_chars(length->data(), length->data() + length->size(), value);
    if (ec != std::errc() || end != length->data() + length->size() || value < 0) {
      return "Content-Length is not a non-negative integer";
    }
    if (static_cast<uint64_t>(value) > limit) {
      return "Content-Length " + std::to_string(value) + " is over the limit of " +
             std::to_string(limit) + " bytes";
    }
  }
  if (response.body.size() > limit) {
    return "body is over the limit of " + std::to_string(limit) + " bytes";
  }
  if (response.body.empty()) return "empty body";
  return std::nullopt;
}

}  // namespace

std::chrono::milliseconds RetryWait(int failed_attempt,
                                    std::optional<std::chrono::milliseconds> retry_after) {
  std::chrono::milliseconds backoff = kMaxWait;
  if (failed_attempt <= 5)
    backoff = std::chrono::seconds(int64_t{1} << std::max(0, failed_attempt - 1));
  backoff = std::min<std::chrono::milliseconds>(backoff, kMaxWait);
  if (retry_after) backoff = std::max(backoff, *retry_after);
  return std::min<std::chrono::milliseconds>(backoff, kMaxWait);
}

std::expected<std::string, FetchError> UsfwsFetcher::Get(const std::string& url,
                                                         std::size_t max_body_bytes) {
  http::Request request;
  request.url = url;
  request.headers.Set("Accept", "application/json, text/html");
  request.headers.Set("User-Agent", policy_.user_agent);
  const http::AttemptLimits limits{.timeout = policy_.timeout,
                                   .connect_timeout = policy_.timeout,
                                   .max_response_bytes = max_body_bytes};
  const int max_attempts = std::max(1, policy_.max_attempts);
  Attempt attempt;
  for (int n = 1;; ++n) {
    auto sent = transport_.Send(request, limits);
    if (!sent) {
      // A body over the limit ends the transfer at once; anything else without a status
      // (refused, reset, timed out, a request the recording does not hold) may pass.
      const bool too_large = sent.error().kind == ErrorKind::kData;
      attempt = too_large ? Fail(false, "body is over the limit of " +
                                            std::to_string(max_body_bytes) + " bytes")
                          : Fail(true, "no HTTP status (" +
                                           std::string(ErrorKindName(sent.error().kind)) + ")");
    } else if (sent->status == 429 || sent->status >= 500) {
      attempt = Fail(true, "HTTP " + std::to_string(sent->status));
      if (auto header = sent->headers.Get("Retry-After")) {
        attempt.retry_after = http::ParseRetryAfter(*header, timing_.WallNow());
      }
    } else if (!sent->ok()) {
      attempt = Fail(false, "HTTP " + std::to_string(sent->status));
    } else if (auto problem = BodyProblem(*sent, max_body_bytes)) {
      attempt = Fail(false, *problem);
    } else {
      return std::move(sent->body);
    }
    attempt.error->attempts = n;
    if (!attempt.transient) return std::unexpected(*attempt.error);
    if (n >= max_attempts) {
      attempt.error->failure = FetchFailure::kRetriesExhausted;
      return std::unexpected(*attempt.error);
    }
    timing_.SleepFor(RetryWait(n, attempt.retry_after));
  }
}

}  // namespace databox::source
