// The HTTP client every source, the REST catalog and the S3 file IO use: retries with
// backoff, Retry-After, response caps, status-to-error mapping and redaction.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "common/error.h"
#include "http/curl_transport.h"
#include "http/message.h"
#include "http/redirects.h"
#include "http/retry.h"
#include "http/transport.h"

namespace databox::http {

struct ClientOptions {
  RetryPolicy retry;
  std::chrono::milliseconds timeout{std::chrono::seconds(60)};          //!< per attempt
  std::chrono::milliseconds connect_timeout{std::chrono::seconds(10)};  //!< per attempt
  std::size_t max_response_bytes = std::size_t{512} << 20;              //!< decoded body cap
  //! Clock, sleep and jitter for retries; the real ones when null. Not owned.
  RetryTiming* timing = nullptr;
  //! Which redirects are followed and where credentials go (http/redirects.h).
  RedirectPolicy redirects;
};

//! Options from registry-style settings in seconds (registry::ServiceHttpSettings or any type
//! with connect_timeout_s, timeout_s, retries, backoff_initial_s and backoff_max_s).
template <typename Settings>
ClientOptions ClientOptionsFromSettings(const Settings& settings) {
  auto millis = [](double seconds) {
    return std::chrono::milliseconds(static_cast<int64_t>(seconds * 1000));
  };
  ClientOptions options;
  options.timeout = millis(settings.timeout_s);
  options.connect_timeout = millis(settings.connect_timeout_s);
  options.retry.max_attempts = settings.retries + 1;
  options.retry.base_delay = millis(settings.backoff_initial_s);
  options.retry.max_delay = millis(settings.backoff_max_s);
  return options;
}

//! Sends requests through a Transport with retries and error mapping.
//!
//! Retries: 429 always; 5xx and transport failures (kNetwork from the transport, including
//! timeouts) only for idempotent requests (see Request::idempotent). Waits follow
//! RetryPolicy (full jitter), or the server's Retry-After when given; when the wait would end
//! past the total budget, the client stops and reports the last outcome.
//!
//! Errors (messages name the method and the redacted URL): kNetwork for transport failures,
//! 429 and 5xx (with attempts and last status), kAuth for 401/403, kNotFound for 404, kData
//! for other 4xx and for a body over the cap. With Request::allow_error_status the final
//! non-2xx response is returned instead.
//!
//! Values of credential headers (IsCredentialHeaderName) and of credential query parameters
//! are registered with RegisterSecret before sending, so they never appear in messages.
//!
//! Redirects are followed by RedirectTransport under options.redirects, over any transport.
//!
//! A client is used by one thread at a time (the curl transport holds one connection cache).
class HttpClient {
 public:
  //! A client over libcurl.
  static Result<HttpClient> Make(ClientOptions options = {}, CurlOptions curl = {});
  //! A client over any transport (a recording, a fake). Shared because one recording may
  //! serve the clients of several workers; the transport must then be thread-safe.
  static HttpClient WithTransport(std::shared_ptr<Transport> transport, ClientOptions options = {});

  //! Move-only: copies would share one connection cache between threads.
  HttpClient(HttpClient&&) = default;
  HttpClient& operator=(HttpClient&&) = default;
  HttpClient(const HttpClient&) = delete;
  HttpClient& operator=(const HttpClient&) = delete;

  Result<Response> Send(Request request);
  //! GET `url`; the body of a 2xx response or an error.
  Result<Response> Get(std::string url, Headers headers = {});

  const ClientOptions& options() const { return options_; }

 private:
  HttpClient(std::shared_ptr<Transport> transport, ClientOptions options)
      : transport_(std::move(transport)), options_(std::move(options)) {}

  std::shared_ptr<Transport> transport_;  //!< never null
  ClientOptions options_;
};

}  // namespace databox::http
