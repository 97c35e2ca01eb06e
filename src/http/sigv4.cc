#include "http/sigv4.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <algorithm>
#include <ctime>

#include "common/ascii.h"
#include "common/encoding.h"

namespace databox::http {
namespace {

constexpr std::string_view kAlgorithm = "AWS4-HMAC-SHA256";

//! Trims both ends and collapses runs of spaces inside, as the canonical headers require.
std::string CanonicalHeaderValue(std::string_view value) {
  std::string out;
  bool in_space = false;
  for (char c : value) {
    if (c == ' ' || c == '\t') {
      in_space = true;
      continue;
    }
    if (in_space && !out.empty()) out += ' ';
    in_space = false;
    out += c;
  }
  return out;
}

}  // namespace

std::string HmacSha256(std::string_view key, std::string_view data) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
       reinterpret_cast<const unsigned char*>(data.data()), data.size(), digest, &length);
  return std::string(reinterpret_cast<const char*>(digest), length);
}

std::string CanonicalQuery(std::vector<std::pair<std::string, std::string>> params) {
  for (auto& [name, value] : params) {
    name = UrlEncode(name);
    value = UrlEncode(value);
  }
  std::ranges::sort(params);
  std::string out;
  for (const auto& [name, value] : params) {
    if (!out.empty()) out += '&';
    out += name + "=" + value;
  }
  return out;
}

std::string AmzDate(std::chrono::system_clock::time_point time) {
  std::time_t t = std::chrono::system_clock::to_time_t(time);
  std::tm utc{};
  gmtime_r(&t, &utc);
  char buffer[sizeof("YYYYMMDDTHHMMSSZ")];
  std::strftime(buffer, sizeof(buffer), "%Y%m%dT%H%M%SZ", &utc);
  return buffer;
}

SigV4Result SignV4(const SigningRequest& request, const SigningScope& scope) {
  std::vector<std::pair<std::string, std::string>> headers;
  headers.reserve(request.headers.size());
  for (const auto& [name, value] : request.headers) {
    headers.emplace_back(AsciiLower(name), CanonicalHeaderValue(value));
  }
  std::ranges::stable_sort(headers, {}, &std::pair<std::string, std::string>::first);

  // Repeated names are signed once, with their values joined by commas.
  std::string canonical_headers;
  SigV4Result result;
  for (std::size_t i = 0; i < headers.size(); ++i) {
    if (i > 0 && headers[i].first == headers[i - 1].first) {
      canonical_headers.pop_back();  // the '\n'
      canonical_headers += "," + headers[i].second + "\n";
      continue;
    }
    canonical_headers += headers[i].first + ":" + headers[i].second + "\n";
    if (!result.signed_headers.empty()) result.signed_headers += ';';
    result.signed_headers += headers[i].first;
  }

  result.canonical_request =
      std::string(request.method) + "\n" + std::string(request.canonical_uri) + "\n" +
      std::string(request.canonical_query) + "\n" + canonical_headers + "\n" +
      result.signed_headers + "\n" + std::string(request.payload_sha256);

  std::string_view date = scope.amz_date.substr(0, 8);
  std::string credential_scope = std::string(date) + "/" + std::string(scope.region) + "/" +
                                 std::string(scope.service) + "/aws4_request";
  result.string_to_sign = std::string(kAlgorithm) + "\n" + std::string(scope.amz_date) + "\n" +
                          credential_scope + "\n" + Sha256Hex(result.canonical_request);

  std::string key = HmacSha256("AWS4" + std::string(scope.secret_access_key), date);
  key = HmacSha256(key, scope.region);
  key = HmacSha256(key, scope.service);
  key = HmacSha256(key, "aws4_request");
  result.signature = HexEncode(HmacSha256(key, result.string_to_sign));
  result.authorization = std::string(kAlgorithm) +
                         " Credential=" + std::string(scope.access_key_id) + "/" +
                         credential_scope + ",SignedHeaders=" + result.signed_headers +
                         ",Signature=" + result.signature;
  return result;
}

}  // namespace databox::http
