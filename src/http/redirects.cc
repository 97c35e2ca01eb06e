#include "http/redirects.h"

#include <curl/curl.h>

#include <algorithm>
#include <optional>

#include "common/ascii.h"
#include "common/encoding.h"
#include "common/redact.h"
#include "http/sigv4_request.h"

namespace databox::http {
namespace {

struct UrlDeleter {
  void operator()(CURLU* url) const { curl_url_cleanup(url); }
};
using UrlHandle = std::unique_ptr<CURLU, UrlDeleter>;

std::optional<std::string> Part(CURLU* url, CURLUPart part, unsigned int flags = 0) {
  char* value = nullptr;
  if (curl_url_get(url, part, &value, flags) != CURLUE_OK || value == nullptr) return std::nullopt;
  std::string out(value);
  curl_free(value);
  return out;
}

//! True when `value` holds a secret registered for redaction.
bool HoldsSecret(std::string_view value) { return Redact(value) != value; }

//! The query of `url` without credential parameters and parameters holding a secret.
std::string WithoutSecretParams(std::string_view url) {
  const std::size_t query = url.find('?');
  if (query == std::string_view::npos) return std::string(url);
  const std::size_t fragment = url.find('#', query);
  std::string_view params =
      url.substr(query + 1, fragment == std::string_view::npos ? std::string_view::npos
                                                               : fragment - query - 1);
  std::string kept;
  while (!params.empty()) {
    const std::string_view param = params.substr(0, params.find('&'));
    params.remove_prefix(std::min(params.size(), param.size() + 1));
    const std::string_view name = param.substr(0, param.find('='));
    if (IsCredentialParamName(UrlDecode(name)) || HoldsSecret(UrlDecode(param))) continue;
    kept += (kept.empty() ? "" : "&") + std::string(param);
  }
  std::string out(url.substr(0, query));
  if (!kept.empty()) out += "?" + kept;
  if (fragment != std::string_view::npos) out += url.substr(fragment);
  return out;
}

bool HostAllowed(const RedirectPolicy& policy, const Origin& target) {
  return std::any_of(policy.allowed_hosts.begin(), policy.allowed_hosts.end(),
                     [&](const std::string& host) { return AsciiLower(host) == target.host; });
}

std::string AllowHint(const RedirectPolicy& policy, const Origin& target) {
  if (policy.allow_setting.empty()) return "";
  return "; to follow it without credentials, add \"" + target.host + "\" to " +
         policy.allow_setting;
}

//! The request for the next hop: Location resolved, the method a 303 (or a POST's 301/302)
//! turns into GET.
Result<Request> NextHop(const Request& request, const Response& response) {
  const auto location = response.headers.Get("Location");
  DATABOX_ASSIGN_OR_RETURN(std::string target, ResolveLocation(request.url, *location));
  Request next = request;
  next.url = std::move(target);
  const bool to_get =
      (response.status == 303 && request.method != Method::kHead) ||
      ((response.status == 301 || response.status == 302) && request.method == Method::kPost);
  if (to_get) {
    next.method = Method::kGet;
    next.body.clear();
    next.headers.Remove("Content-Type");
    next.headers.Remove("Content-Length");
  }
  return next;
}

std::string Where(const Request& request) {
  return std::string(MethodName(request.method)) + " " + RedactUrl(request.url);
}

}  // namespace

std::string Origin::ToString() const { return scheme + "://" + host + ":" + std::to_string(port); }

Result<Origin> OriginOf(std::string_view url) {
  UrlHandle handle(curl_url());
  if (!handle) return MakeError(ErrorKind::kInternal, "out of memory parsing a URL");
  const std::string text(url);
  if (curl_url_set(handle.get(), CURLUPART_URL, text.c_str(), 0) != CURLUE_OK) {
    return MakeError(ErrorKind::kConfig, "not an absolute URL: " + RedactUrl(url));
  }
  Origin origin;
  origin.scheme = AsciiLower(Part(handle.get(), CURLUPART_SCHEME).value_or(""));
  origin.host = AsciiLower(Part(handle.get(), CURLUPART_HOST).value_or(""));
  const std::string port = Part(handle.get(), CURLUPART_PORT, CURLU_DEFAULT_PORT).value_or("0");
  origin.port = std::atoi(port.c_str());
  if ((origin.scheme != "http" && origin.scheme != "https") || origin.host.empty()) {
    return MakeError(ErrorKind::kConfig, "not an http(s) URL: " + RedactUrl(url));
  }
  return origin;
}

Result<std::string> ResolveLocation(std::string_view base, std::string_view location) {
  UrlHandle handle(curl_url());
  if (!handle) return MakeError(ErrorKind::kInternal, "out of memory parsing a URL");
  const std::string base_text(base), location_text(location);
  if (curl_url_set(handle.get(), CURLUPART_URL, base_text.c_str(), 0) != CURLUE_OK ||
      curl_url_set(handle.get(), CURLUPART_URL, location_text.c_str(), 0) != CURLUE_OK) {
    return MakeError(ErrorKind::kData,
                     "a redirect's Location is not a valid URL: " + RedactUrl(location));
  }
  auto resolved = Part(handle.get(), CURLUPART_URL);
  if (!resolved) {
    return MakeError(ErrorKind::kData,
                     "a redirect's Location is not a valid URL: " + RedactUrl(location));
  }
  return *resolved;
}

bool IsRedirectStatus(long status) {
  return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
}

Request WithoutCredentials(Request request) {
  Headers kept;
  for (const auto& [name, value] : request.headers.fields()) {
    if (IsCredentialHeaderName(name) || IsAmzHeader(name) || HoldsSecret(value)) continue;
    kept.Add(name, value);
  }
  request.headers = std::move(kept);
  request.url = WithoutSecretParams(request.url);
  UrlHandle handle(curl_url());
  if (handle && curl_url_set(handle.get(), CURLUPART_URL, request.url.c_str(), 0) == CURLUE_OK) {
    curl_url_set(handle.get(), CURLUPART_USER, nullptr, 0);
    curl_url_set(handle.get(), CURLUPART_PASSWORD, nullptr, 0);
    if (auto url = Part(handle.get(), CURLUPART_URL)) request.url = *url;
  }
  return request;
}

Result<Response> RedirectTransport::Send(const Request& request, const AttemptLimits& limits) {
  DATABOX_ASSIGN_OR_RETURN(Response response, inner_->Send(request, limits));
  if (!policy_.follow) return response;
  DATABOX_ASSIGN_OR_RETURN(const Origin credentials_origin, OriginOf(request.url));
  Request current = request;
  bool stripped = false;
  for (int hops = 0; IsRedirectStatus(response.status) && response.headers.Contains("Location");
       ++hops) {
    if (hops >= policy_.max_redirects) {
      return MakeError(ErrorKind::kData, Where(request) + " redirected more than " +
                                             std::to_string(policy_.max_redirects) +
                                             " times; refused");
    }
    DATABOX_ASSIGN_OR_RETURN(Request next, NextHop(current, response));
    DATABOX_ASSIGN_OR_RETURN(const Origin from, OriginOf(current.url));
    DATABOX_ASSIGN_OR_RETURN(const Origin to, OriginOf(next.url));
    const std::string hop = Where(current) + " redirected to " + RedactUrl(next.url);
    if (from.scheme == "https" && to.scheme == "http") {
      return MakeError(ErrorKind::kData, hop + ": a redirect from https to http is refused");
    }
    if (!(to == credentials_origin) && !stripped) {
      if (!HostAllowed(policy_, to)) {
        return MakeError(ErrorKind::kConfig,
                         hop + ": refused, the redirect leaves " + credentials_origin.ToString() +
                             " for another origin, " + to.ToString() +
                             ", and credentials go only to the origin they are configured for" +
                             AllowHint(policy_, to));
      }
      next = WithoutCredentials(std::move(next));
      stripped = true;
    } else if (!(to == credentials_origin) && !HostAllowed(policy_, to)) {
      return MakeError(ErrorKind::kConfig, hop + ": refused, " + to.ToString() +
                                               " is another origin" + AllowHint(policy_, to));
    }
    current = std::move(next);
    DATABOX_ASSIGN_OR_RETURN(response, inner_->Send(current, limits));
  }
  return response;
}

}  // namespace databox::http
