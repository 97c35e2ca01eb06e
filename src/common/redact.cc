#include "common/redact.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <mutex>
#include <shared_mutex>
#include <vector>

#include "common/encoding.h"

namespace databox {
namespace {

constexpr std::string_view kMask = "***";

//! Registered secrets, longest first so a secret containing another is masked whole.
struct SecretRegistry {
  std::shared_mutex mutex;
  std::vector<std::string> values;
};

SecretRegistry& Registry() {
  static SecretRegistry* registry = new SecretRegistry();  // never destroyed: used at exit
  return *registry;
}

//! Lower-case copy with '-' folded to '_' so "X-Amz-Signature" and "x_amz_signature" agree.
std::string NormalizeName(std::string_view name) {
  std::string out;
  out.reserve(name.size());
  for (char c : name) {
    out += c == '-' ? '_' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

bool Contains(std::string_view haystack, std::string_view needle) {
  return haystack.find(needle) != std::string_view::npos;
}

void ReplaceAll(std::string& text, std::string_view value) {
  std::size_t pos = 0;
  while ((pos = text.find(value, pos)) != std::string::npos) {
    text.replace(pos, value.size(), kMask);
    pos += kMask.size();
  }
}

//! Masks the password of "scheme://user:password@host/...".
void MaskUserInfo(std::string& url) {
  std::size_t start = url.find("://");
  if (start == std::string::npos) return;
  start += 3;
  std::size_t end = url.find_first_of("/?#", start);
  if (end == std::string::npos) end = url.size();
  std::size_t at = url.rfind('@', end);
  if (at == std::string::npos || at < start) return;
  std::size_t colon = url.find(':', start);
  if (colon == std::string::npos || colon > at) return;
  url.replace(colon + 1, at - colon - 1, kMask);
}

//! Masks the values of credential parameters in the query of `url`.
std::string MaskCredentialParams(std::string_view url) {
  std::size_t query = url.find('?');
  if (query == std::string_view::npos) return std::string(url);
  std::size_t fragment = url.find('#', query);
  if (fragment == std::string_view::npos) fragment = url.size();
  std::string out(url.substr(0, query + 1));
  std::string_view params = url.substr(query + 1, fragment - query - 1);
  bool first = true;
  while (true) {
    std::size_t amp = params.find('&');
    std::string_view param = params.substr(0, amp);
    if (!first) out += '&';
    first = false;
    std::size_t eq = param.find('=');
    if (eq != std::string_view::npos && IsCredentialParamName(UrlDecode(param.substr(0, eq)))) {
      out += param.substr(0, eq + 1);
      out += kMask;
    } else {
      out += param;
    }
    if (amp == std::string_view::npos) break;
    params.remove_prefix(amp + 1);
  }
  out += url.substr(fragment);
  return out;
}

}  // namespace

void RegisterSecret(std::string_view value) {
  if (value.size() < kMinSecretLength) return;
  std::array<std::string, 3> forms = {std::string(value), UrlEncode(value), UrlEncode(value)};
  // Form encoding writes spaces as '+'.
  std::replace(forms[2].begin(), forms[2].end(), ' ', '+');
  for (std::size_t pos = 0; (pos = forms[2].find("%20", pos)) != std::string::npos;) {
    forms[2].replace(pos, 3, "+");
  }
  SecretRegistry& registry = Registry();
  std::unique_lock lock(registry.mutex);
  for (std::string& form : forms) {
    if (std::find(registry.values.begin(), registry.values.end(), form) != registry.values.end()) {
      continue;
    }
    registry.values.push_back(std::move(form));
  }
  std::stable_sort(registry.values.begin(), registry.values.end(),
                   [](const std::string& a, const std::string& b) { return a.size() > b.size(); });
}

std::string Redact(std::string_view text) {
  std::string out(text);
  SecretRegistry& registry = Registry();
  std::shared_lock lock(registry.mutex);
  for (const std::string& value : registry.values) ReplaceAll(out, value);
  return out;
}

bool IsCredentialParamName(std::string_view name) {
  static constexpr std::array<std::string_view, 12> kExact = {
      "key",  "apikey",     "api_key", "access_key", "accesskey",        "sig",
      "auth", "credential", "pwd",     "passwd",     "client_assertion", "jwt"};
  static constexpr std::array<std::string_view, 6> kParts = {"token",     "secret",     "password",
                                                             "signature", "credential", "api_key"};
  std::string normalized = NormalizeName(name);
  for (std::string_view exact : kExact) {
    if (normalized == exact) return true;
  }
  for (std::string_view part : kParts) {
    if (Contains(normalized, part)) return true;
  }
  return false;
}

bool IsCredentialHeaderName(std::string_view name) {
  static constexpr std::array<std::string_view, 5> kExact = {"key", "cookie", "set_cookie",
                                                             "x_api_key", "api_key"};
  static constexpr std::array<std::string_view, 6> kParts = {"token",  "secret", "password",
                                                             "apikey", "auth",   "credential"};
  std::string normalized = NormalizeName(name);
  for (std::string_view exact : kExact) {
    if (normalized == exact) return true;
  }
  for (std::string_view part : kParts) {
    if (Contains(normalized, part)) return true;
  }
  return false;
}

std::string RedactUrl(std::string_view url) {
  std::string out = MaskCredentialParams(Redact(url));
  MaskUserInfo(out);
  return out;
}

}  // namespace databox
