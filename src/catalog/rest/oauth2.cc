#include "catalog/rest/oauth2.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "catalog/rest/rest_error.h"
#include "common/encoding.h"
#include "common/redact.h"

namespace databox::catalog::rest {
namespace {

constexpr std::chrono::seconds kMaxRefreshMargin{60};

}  // namespace

Result<OAuth2Tokens> OAuth2Tokens::Make(OAuth2Settings settings, Clock clock) {
  if (settings.token_url.empty()) {
    return MakeError(ErrorKind::kConfig,
                     "the REST catalog has a credential but no OAuth2 token endpoint: set "
                     "oauth2_server_uri (Polaris: <uri>/v1/oauth/tokens)");
  }
  if (settings.client_id.empty() || settings.client_secret.empty()) {
    return MakeError(ErrorKind::kConfig,
                     "the REST catalog credential must be \"client_id:client_secret\" with both "
                     "parts non-empty");
  }
  RegisterSecret(settings.client_secret);
  if (!clock) clock = [] { return std::chrono::steady_clock::now(); };
  return OAuth2Tokens(std::move(settings), std::move(clock));
}

Result<std::string> OAuth2Tokens::Token(http::HttpClient& client) {
  if (token_ && (!refresh_at_ || clock_() < *refresh_at_)) return *token_;
  return Fetch(client);
}

Result<std::string> OAuth2Tokens::Fetch(http::HttpClient& client) {
  token_.reset();
  http::Request request;
  request.method = http::Method::kPost;
  request.url = settings_.token_url;
  request.headers.Set("Content-Type", "application/x-www-form-urlencoded");
  request.headers.Set("Accept", "application/json");
  if (!settings_.realm.empty()) request.headers.Set(settings_.realm_header, settings_.realm);
  request.body = "grant_type=client_credentials&client_id=" + UrlEncode(settings_.client_id) +
                 "&client_secret=" + UrlEncode(settings_.client_secret);
  if (!settings_.scope.empty()) request.body += "&scope=" + UrlEncode(settings_.scope);
  request.idempotent = true;  // a token request changes nothing on the server
  request.allow_error_status = true;

  const std::string what = "requesting an OAuth2 token from " + RedactUrl(settings_.token_url);
  const auto started = clock_();
  auto response = client.Send(std::move(request));
  if (!response) return std::unexpected(ErrorFromTransport(response.error(), RestOp::kRead, what));
  if (response->status == 400 || response->status == 401 || response->status == 403) {
    Error error = ErrorFromResponse(*response, RestOp::kRead, what);
    error.kind = ErrorKind::kAuth;
    error.message += "; check the catalog credential (client_id:client_secret) and scope";
    return std::unexpected(std::move(error));
  }
  if (!response->ok()) {
    return std::unexpected(ErrorFromResponse(*response, RestOp::kRead, what));
  }
  auto json = nlohmann::json::parse(response->body, nullptr, /*allow_exceptions=*/false);
  if (!json.is_object() || !json.contains("access_token") || !json["access_token"].is_string()) {
    return MakeError(ErrorKind::kAuth, what + " failed: the answer holds no access_token");
  }
  std::string token = json["access_token"].get<std::string>();
  RegisterSecret(token);
  refresh_at_.reset();
  if (json.contains("expires_in") && json["expires_in"].is_number()) {
    const auto lifetime = std::chrono::seconds(json["expires_in"].get<int64_t>());
    const auto margin =
        std::min<std::chrono::steady_clock::duration>(kMaxRefreshMargin, lifetime / 2);
    refresh_at_ = started + lifetime - margin;
  }
  token_ = token;
  return token;
}

}  // namespace databox::catalog::rest
