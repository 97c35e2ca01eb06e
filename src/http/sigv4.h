// AWS Signature Version 4 (header-based authentication), on OpenSSL: S3 requests (fileio/s3)
// and the requests of SigV4-signed Iceberg REST catalogs (sigv4_request.h).
//
// The signer is deterministic: callers supply the timestamp, the canonical URI (the path as it
// is sent, already percent-encoded: S3 does not encode it twice) and the headers to sign. See
// docs.aws.amazon.com/AmazonS3/latest/API/sig-v4-header-based-auth.html; the unit tests check the
// four example requests published there. URI encoding is common/encoding.h's UrlEncode (strict
// RFC 3986, as SigV4 requires): an object key keeps its "/", query names and values do not.
#pragma once

#include <chrono>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/sha256.h"

namespace databox::http {

//! SHA-256 of the empty string: the payload hash of requests without a body.
inline constexpr std::string_view kEmptyPayloadSha256 =
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

//! Raw (32-byte) HMAC-SHA256 of `data` under `key`.
std::string HmacSha256(std::string_view key, std::string_view data);

//! The canonical query string: names and values URI-encoded ("/" included), sorted by encoded
//! name then value, "name=value" joined by "&" (a valueless parameter such as "uploads" becomes
//! "uploads=").
//! The result is also what must be sent on the wire, so the server sees the signed form.
std::string CanonicalQuery(std::vector<std::pair<std::string, std::string>> params);

//! "YYYYMMDDTHHMMSSZ" (UTC), the x-amz-date form.
std::string AmzDate(std::chrono::system_clock::time_point time);

//! One request to sign.
struct SigningRequest {
  std::string_view method;           //!< "GET", "PUT", ...
  std::string_view canonical_uri;    //!< encoded path, e.g. "/test%24file.text"
  std::string_view canonical_query;  //!< from CanonicalQuery(); empty when there is none
  //! Headers to sign (names any case; values are trimmed and inner spaces collapsed). Must hold
  //! host, x-amz-date and x-amz-content-sha256 (and x-amz-security-token with a session token).
  std::vector<std::pair<std::string, std::string>> headers;
  std::string_view payload_sha256;  //!< hex SHA-256 of the body, or "UNSIGNED-PAYLOAD"
};

//! Who signs, for which region and service, at which time.
struct SigningScope {
  std::string_view access_key_id;
  std::string_view secret_access_key;
  std::string_view region;    //!< e.g. "us-east-1"
  std::string_view amz_date;  //!< "20130524T000000Z"; its first 8 characters are the date
  std::string_view service = "s3";
};

//! The intermediate strings (for tests and diagnosis: they hold no secret) and the result.
struct SigV4Result {
  std::string canonical_request;
  std::string string_to_sign;
  std::string signed_headers;  //!< "host;range;x-amz-content-sha256;x-amz-date"
  std::string signature;       //!< lower-case hex
  std::string authorization;   //!< the Authorization header value
};

//! Signs `request`. Pure function of its inputs.
SigV4Result SignV4(const SigningRequest& request, const SigningScope& scope);

}  // namespace databox::http
