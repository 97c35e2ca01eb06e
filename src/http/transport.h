// One HTTP exchange, without retries: libcurl in production, a recording in tests.
#pragma once

#include <chrono>
#include <cstddef>

#include "common/error.h"
#include "http/message.h"

namespace databox::http {

//! Settings the client resolves for each attempt (request overrides applied).
struct AttemptLimits {
  std::chrono::milliseconds timeout;
  std::chrono::milliseconds connect_timeout;
  std::size_t max_response_bytes;
};

//! The kData error for a body larger than AttemptLimits::max_response_bytes.
Error ResponseTooLargeError(std::size_t cap);

class Transport {
 public:
  virtual ~Transport() = default;

  //! Performs one attempt. Any HTTP status is a Response. Errors: kNetwork for transport
  //! failures worth retrying (refused, reset, timeout); any other kind is final (kData for a
  //! body over the cap, kNotFound for a request a recording does not hold, kConfig for a bad
  //! URL). Messages must already be redacted.
  virtual Result<Response> Send(const Request& request, const AttemptLimits& limits) = 0;
};

}  // namespace databox::http
