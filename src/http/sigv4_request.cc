#include "http/sigv4_request.h"

#include <string_view>
#include <utility>
#include <vector>

#include "common/ascii.h"
#include "common/encoding.h"
#include "common/sha256.h"
#include "http/sigv4.h"

namespace databox::http {
namespace {

//! "a=1&b" as (name, value) pairs, percent-decoded ("+" stays "+": SigV4 never reads it as a
//! space).
std::vector<std::pair<std::string, std::string>> QueryParams(std::string_view query) {
  std::vector<std::pair<std::string, std::string>> params;
  while (!query.empty()) {
    const std::size_t amp = query.find('&');
    std::string_view part = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
    if (part.empty()) continue;
    const std::size_t eq = part.find('=');
    std::string_view name = part.substr(0, eq);
    std::string_view value = eq == std::string_view::npos ? "" : part.substr(eq + 1);
    params.emplace_back(UrlDecode(name, false), UrlDecode(value, false));
  }
  return params;
}

}  // namespace

bool IsAmzHeader(std::string_view name) {
  return name.size() >= 6 && AsciiEqualsIgnoreCase(name.substr(0, 6), "x-amz-");
}

Status SignRequest(Request& request, const AwsSigning& signing,
                   std::chrono::system_clock::time_point now) {
  std::string_view url = request.url;
  const std::size_t scheme_end = url.find("://");
  if (scheme_end == std::string_view::npos || scheme_end == 0) {
    return MakeError(ErrorKind::kConfig, "cannot sign a request to '" + request.url +
                                             "': the URL has no http:// or https:// scheme");
  }
  std::string_view rest = url.substr(scheme_end + 3);
  rest = rest.substr(0, rest.find('#'));
  const std::size_t path_start = rest.find_first_of("/?");
  const std::string_view host = rest.substr(0, path_start);
  if (host.empty()) {
    return MakeError(ErrorKind::kConfig,
                     "cannot sign a request to '" + request.url + "': the URL has no host");
  }
  std::string_view target = path_start == std::string_view::npos ? "" : rest.substr(path_start);
  const std::size_t question = target.find('?');
  const std::string path =
      question == 0 || target.empty() ? std::string("/") : std::string(target.substr(0, question));
  const std::string query = CanonicalQuery(
      QueryParams(question == std::string_view::npos ? "" : target.substr(question + 1)));

  const std::string amz_date = AmzDate(now);
  const std::string payload_hash = Sha256Hex(request.body);
  request.headers.Set("Host", std::string(host));
  request.headers.Set("x-amz-date", amz_date);
  request.headers.Set("x-amz-content-sha256", payload_hash);
  if (!signing.session_token.empty()) {
    request.headers.Set("x-amz-security-token", signing.session_token);
  }
  // Only the AWS headers and Host are signed: a transport may add or rewrite others.
  std::vector<std::pair<std::string, std::string>> signed_headers;
  for (const auto& field : request.headers.fields()) {
    const std::string_view name = field.first;
    if (AsciiEqualsIgnoreCase(name, "host") || IsAmzHeader(name)) {
      signed_headers.push_back(field);
    }
  }
  SigV4Result result = SignV4(SigningRequest{.method = MethodName(request.method),
                                             .canonical_uri = path,
                                             .canonical_query = query,
                                             .headers = std::move(signed_headers),
                                             .payload_sha256 = payload_hash},
                              SigningScope{.access_key_id = signing.access_key_id,
                                           .secret_access_key = signing.secret_access_key,
                                           .region = signing.region,
                                           .amz_date = amz_date,
                                           .service = signing.service});
  request.headers.Set("Authorization", result.authorization);
  return {};
}

}  // namespace databox::http
