#include "fileio/s3/s3_errors.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>

#include "common/redact.h"
#include "fileio/s3/s3_xml.h"

namespace databox::fileio::s3 {
namespace {

//! Longest server message quoted in an error.
constexpr std::size_t kMaxQuotedChars = 200;

constexpr std::array<std::string_view, 6> kAuthCodes = {
    "ExpiredToken",       "InvalidToken", "TokenRefreshRequired",
    "InvalidAccessKeyId", "AccessDenied", "SignatureDoesNotMatch"};

std::string OneLine(std::string_view text) {
  std::string out;
  for (char c : text.substr(0, kMaxQuotedChars)) {
    out += std::iscntrl(static_cast<unsigned char>(c)) ? ' ' : c;
  }
  if (text.size() > kMaxQuotedChars) out += "...";
  return out;
}

}  // namespace

std::string S3RequestName(std::string_view op, std::string_view location,
                          std::string_view endpoint) {
  return "S3 " + std::string(op) + " of '" + std::string(location) + "' at " +
         std::string(endpoint);
}

Error S3StatusError(std::string_view op, std::string_view location, std::string_view endpoint,
                    const http::Response& response) {
  S3ErrorBody body = ParseS3Error(response.body).value_or(S3ErrorBody{});
  const long status = response.status;
  // Only the code and message are quoted: a SignatureDoesNotMatch body also echoes the string
  // to sign and the access key id, which have no place in a message.
  std::string detail = "HTTP " + std::to_string(status);
  if (!body.code.empty()) detail += " " + OneLine(body.code);
  if (!body.message.empty()) detail += ": " + OneLine(body.message);
  const std::string what = S3RequestName(op, location, endpoint) + " ";
  auto error = [&](ErrorKind kind, std::string_view advice) {
    return Error{kind, Redact(what + "failed (" + detail + "); " + std::string(advice))};
  };

  bool auth_code = std::ranges::find(kAuthCodes, body.code) != kAuthCodes.end();
  if (status == 401 || status == 403 || auth_code) {
    return error(ErrorKind::kAuth,
                 "check the S3 access key id, secret access key and session token (vended "
                 "credentials may have expired), and that they may access this bucket");
  }
  if (body.code == "AuthorizationHeaderMalformed" || status == 301 ||
      body.code == "PermanentRedirect") {
    return error(ErrorKind::kConfig,
                 "the bucket is in another region or behind another endpoint: check the "
                 "configured S3 region and endpoint");
  }
  if (status == 404) {
    if (body.code == "NoSuchBucket") {
      return error(ErrorKind::kNotFound,
                   "the bucket does not exist: create it or fix the warehouse location");
    }
    return error(ErrorKind::kNotFound, "the object does not exist");
  }
  if (status == 409) {
    return error(ErrorKind::kConflict, "another writer changed the object at the same time; retry");
  }
  if (status == 412) {
    return error(ErrorKind::kAlreadyExists,
                 "the object already exists and must not be overwritten; write to a new location");
  }
  if (status == 429 || status >= 500) {
    return error(ErrorKind::kNetwork,
                 "the store kept failing or throttling after the configured retries; retry later");
  }
  return error(ErrorKind::kData, "the store rejected the request");
}

}  // namespace databox::fileio::s3
