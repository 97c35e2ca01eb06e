// Transport over one libcurl easy handle.
#pragma once

#include <memory>
#include <string>

#include "common/error.h"
#include "http/transport.h"

namespace databox::http {

struct CurlOptions {
  //! Verify the server certificate and host name. Turn off only for local test services with
  //! self-signed certificates; never for public endpoints or credentials.
  bool verify_tls = true;
  //! PEM bundle of trusted CAs; the system store when empty.
  std::string ca_bundle;
  std::string user_agent = "databox/0.1";
};

//! Never follows redirects: a 3xx is a Response (RedirectTransport follows them by the
//! credentials rule). Keeps one easy handle, so connections, TLS sessions and DNS answers are
//! reused between requests. Not thread-safe: one thread at a time (give each worker its own
//! client).
class CurlTransport final : public Transport {
 public:
  static Result<std::unique_ptr<CurlTransport>> Make(CurlOptions options = {});
  ~CurlTransport() override;
  CurlTransport(const CurlTransport&) = delete;
  CurlTransport& operator=(const CurlTransport&) = delete;

  Result<Response> Send(const Request& request, const AttemptLimits& limits) override;

 private:
  CurlTransport(void* handle, CurlOptions options)
      : handle_(handle), options_(std::move(options)) {}

  void* handle_;         //!< CURL*; owned
  CurlOptions options_;  //!< fixed for the life of the transport
};

}  // namespace databox::http
