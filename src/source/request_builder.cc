#include "source/request_builder.h"

#include <set>

#include "common/ascii.h"
#include "common/encoding.h"
#include "common/redact.h"

namespace databox::source {
namespace {

const std::set<std::string, std::less<>>& WindowNames() {
  static const std::set<std::string, std::less<>> kNames = {"start", "end", "year", "month", "day"};
  return kNames;
}

//! True when the query of `url` has a parameter called `name`.
bool HasQueryParam(const std::string& url, const std::string& name) {
  const std::size_t q = url.find('?');
  if (q == std::string::npos) return false;
  std::size_t pos = q + 1;
  while (pos <= url.size()) {
    std::size_t amp = url.find('&', pos);
    if (amp == std::string::npos) amp = url.size();
    const std::string pair = url.substr(pos, amp - pos);
    if (UrlDecode(pair.substr(0, pair.find('='))) == name) return true;
    pos = amp + 1;
  }
  return false;
}

}  // namespace

Result<std::string> FillPlaceholders(const std::string& text,
                                     const std::map<std::string, std::string>& vars) {
  std::string out;
  std::size_t pos = 0;
  while (pos < text.size()) {
    const std::size_t open = text.find('{', pos);
    const std::size_t close = open == std::string::npos ? open : text.find('}', open);
    if (close == std::string::npos) break;
    out.append(text, pos, open - pos);
    const std::string name = text.substr(open + 1, close - open - 1);
    auto it = vars.find(name);
    if (it == vars.end()) {
      return MakeError(
          ErrorKind::kConfig,
          "placeholder {" + name + "} has no value; define it in [source.vars]" +
              (WindowNames().contains(name) ? " or give the source a [source.window]" : ""));
    }
    out += it->second;
    pos = close + 1;
  }
  out.append(text, pos);
  return out;
}

bool UsesWindowPlaceholder(const std::string& text) {
  for (const auto& name : WindowNames()) {
    if (text.find("{" + name + "}") != std::string::npos) return true;
  }
  return false;
}

std::map<std::string, std::string> MergeVars(std::map<std::string, std::string> base,
                                             const std::map<std::string, std::string>& over) {
  for (const auto& [k, v] : over) base[k] = v;
  return base;
}

std::string AppendQuery(std::string url, const std::map<std::string, std::string>& params) {
  char separator = url.find('?') == std::string::npos ? '?' : '&';
  for (const auto& [name, value] : params) {
    url += separator;
    url += UrlEncode(name);
    url += '=';
    url += UrlEncode(value);
    separator = '&';
  }
  return url;
}

std::string UrlOrigin(const std::string& url) {
  const std::size_t scheme = url.find("://");
  if (scheme == std::string::npos) return "";
  const std::size_t end = url.find_first_of("/?#", scheme + 3);
  return AsciiLower(url.substr(0, end));
}

Result<http::Request> BuildRequest(const registry::Source& source,
                                   const registry::Resource& resource,
                                   const std::map<std::string, std::string>& vars,
                                   const std::map<std::string, std::string>& extra_params) {
  static const std::map<std::string, std::string> kNone;
  const auto* refined = resource.refine ? &resource.refine->params : &kNone;
  std::map<std::string, std::string> params;
  for (const auto* layer : {&source.params, &resource.params, refined, &extra_params}) {
    for (const auto& [name, value] : *layer) {
      DATABOX_ASSIGN_OR_RETURN(params[name], FillPlaceholders(value, vars));
    }
  }
  DATABOX_ASSIGN_OR_RETURN(std::string path, FillPlaceholders(resource.path, vars));
  http::Request request;
  request.url = AppendQuery(source.base_url + path, params);
  for (const auto* layer : {&source.headers, &resource.headers}) {
    for (const auto& [name, value] : *layer) request.headers.Set(name, value);
  }
  if (resource.max_response_bytes) {
    request.max_response_bytes = static_cast<std::size_t>(*resource.max_response_bytes);
  }
  request.allow_error_status = true;
  ApplyAuth(source.auth, &request);
  return request;
}

void ApplyAuth(const registry::AuthSettings& auth, http::Request* request) {
  const std::string& secret = auth.secret.Reveal();
  if (auth.type == registry::AuthType::kNone || secret.empty()) return;
  RegisterSecret(secret);
  switch (auth.type) {
    case registry::AuthType::kHeader:
      request->headers.Set(auth.name, secret);
      break;
    case registry::AuthType::kBearer:
      request->headers.Set("Authorization", "Bearer " + secret);
      break;
    case registry::AuthType::kQuery:
      if (!HasQueryParam(request->url, auth.name)) {
        request->url = AppendQuery(request->url, {{auth.name, secret}});
      }
      break;
    case registry::AuthType::kNone:
      break;
  }
}

}  // namespace databox::source
