// Signs a whole http::Request with AWS Signature Version 4 (sigv4.h), for services other than
// S3FileIO that authenticate this way: Iceberg REST catalogs of AWS S3 Tables, AWS Glue and
// SeaweedFS (signing name "s3tables" or "glue"). The canonical URI is the URL's path as sent
// (already percent-encoded, not encoded a second time); the canonical query is built from the
// URL's query, decoded and re-encoded as SigV4 requires; the payload hash is the body's SHA-256.
#pragma once

#include <chrono>
#include <string>
#include <string_view>

#include "common/error.h"
#include "http/message.h"

namespace databox::http {

//! Who signs, where and for which service. The key id, secret and token are secrets.
struct AwsSigning {
  std::string access_key_id;
  std::string secret_access_key;
  std::string session_token;  //!< empty for long-term keys; sent as x-amz-security-token
  std::string region = "us-east-1";
  std::string service = "s3tables";  //!< the signing name
};

//! True for the AWS headers SigV4 signs besides Host (names starting "x-amz-", any case): the
//! signature and what it covers, which a redirect to another origin must not carry.
bool IsAmzHeader(std::string_view name);

//! Sets Host, x-amz-date, x-amz-content-sha256 (and x-amz-security-token) on `request` and
//! signs them into its Authorization header, at time `now`. kConfig when the URL has
//! no http(s):// scheme and host.
Status SignRequest(Request& request, const AwsSigning& signing,
                   std::chrono::system_clock::time_point now);

}  // namespace databox::http
