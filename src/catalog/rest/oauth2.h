// OAuth2 client-credentials tokens for the REST catalog (Polaris: POST
// /api/catalog/v1/oauth/tokens). The token is cached and fetched again shortly before it
// expires (expires_in) or after the catalog rejected it. The client secret and every token
// are registered as secrets, so they never reach a message or a log.
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <string>

#include "common/error.h"
#include "http/client.h"

namespace databox::catalog::rest {

struct OAuth2Settings {
  std::string token_url;  //!< the token endpoint (oauth2-server-uri)
  std::string client_id;
  std::string client_secret;  //!< registered with RegisterSecret by OAuth2Tokens::Make
  std::string scope;          //!< e.g. PRINCIPAL_ROLE:ALL; left out when empty
  std::string realm_header;  //!< header carrying the realm (Polaris-Realm); unused when realm empty
  std::string realm;
};

class OAuth2Tokens {
 public:
  using Clock = std::function<std::chrono::steady_clock::time_point()>;

  //! kConfig when the token URL or client id/secret is missing. `clock` defaults to steady_clock.
  static Result<OAuth2Tokens> Make(OAuth2Settings settings, Clock clock = nullptr);

  //! A valid access token: the cached one unless it is within the refresh margin of its
  //! expiry (the smaller of 60 s and half its lifetime), else a new one. kAuth when the
  //! endpoint rejects the credential (400/401/403), kNetwork when it cannot be reached.
  Result<std::string> Token(http::HttpClient& client);
  //! Forgets the cached token (after a 401 from the catalog).
  void Invalidate() { token_.reset(); }

 private:
  OAuth2Tokens(OAuth2Settings settings, Clock clock)
      : settings_(std::move(settings)), clock_(std::move(clock)) {}

  Result<std::string> Fetch(http::HttpClient& client);

  OAuth2Settings settings_;
  Clock clock_;
  std::optional<std::string> token_;  //!< cached access token
  //! When to fetch a new token; none when the server gave no expires_in.
  std::optional<std::chrono::steady_clock::time_point> refresh_at_;
};

}  // namespace databox::catalog::rest
