// Redirects, followed by databox rather than by libcurl, so that credentials reach only the
// origin they were configured for.
//
// The rule (docs/registry.md, "Redirects and credentials"):
// - A redirect (301, 302, 303, 307, 308 with a Location) to the same origin (scheme, host and
//   port) as the request is followed with the request's credentials.
// - A redirect to another origin is refused with an error naming both origins, unless the
//   target's host is one of RedirectPolicy::allowed_hosts: then it is followed without
//   credentials (credential headers, signature headers, credential query parameters and
//   `user:password@`), and every later hop stays without them.
// - A redirect from https to http is always refused; more than max_redirects hops are refused.
// - 303, and 301/302 after a POST, continue as GET without a body; others keep the method.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/error.h"
#include "http/message.h"
#include "http/transport.h"

namespace databox::http {

//! Where credentials belong: scheme, host and port (the default port when the URL has none).
struct Origin {
  std::string scheme;  //!< lower case
  std::string host;    //!< lower case
  int port = 0;

  //! "https://api.example.org:443"
  std::string ToString() const;
  bool operator==(const Origin&) const = default;
};

//! The origin of an absolute http(s) URL; kConfig error for anything else.
Result<Origin> OriginOf(std::string_view url);

//! `location` (absolute or relative) resolved against `base`; kData error when malformed.
Result<std::string> ResolveLocation(std::string_view base, std::string_view location);

struct RedirectPolicy {
  static constexpr int kMaxRedirects = 5;
  //! When false every 3xx is returned to the caller as it came (a caller that checks its
  //! redirect itself, such as a pinned file download).
  bool follow = true;
  //! Hosts of other origins whose redirects are followed, without credentials.
  std::vector<std::string> allowed_hosts;
  int max_redirects = kMaxRedirects;
  //! Where a user allows another host, for the refusal's hint ("redirect_hosts of source
  //! ebird"); no hint when empty.
  std::string allow_setting;
};

//! True for 301, 302, 303, 307 and 308.
bool IsRedirectStatus(long status);

//! `request` without anything that carries a credential: credential and signature headers
//! (Authorization, tokens, keys, cookies, x-amz-*), headers and query parameters whose value
//! holds a registered secret, credential query parameters, and `user:password@`.
Request WithoutCredentials(Request request);

//! Follows redirects by the rule above over an inner transport (which must not follow them).
class RedirectTransport final : public Transport {
 public:
  RedirectTransport(std::shared_ptr<Transport> inner, RedirectPolicy policy)
      : inner_(std::move(inner)), policy_(std::move(policy)) {}

  Result<Response> Send(const Request& request, const AttemptLimits& limits) override;

 private:
  std::shared_ptr<Transport> inner_;  //!< never null
  RedirectPolicy policy_;
};

}  // namespace databox::http
