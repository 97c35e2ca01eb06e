// Maps S3 responses that are not successes to project errors. Messages name the operation and
// the s3:// location, quote the server's error code and message (redacted), and say what to do.
#pragma once

#include <string>
#include <string_view>

#include "common/error.h"
#include "http/message.h"

namespace databox::fileio::s3 {

//! "S3 <op> of '<location>' at <endpoint>": names a request in messages. `endpoint` is
//! S3Endpoint::Origin() (scheme://host:port; no credentials, no query, no signature).
std::string S3RequestName(std::string_view op, std::string_view location,
                          std::string_view endpoint);

//! The error for a non-2xx `response` to operation `op` ("GET", "PUT", "UploadPart", ...) on
//! `location` at `endpoint` (see S3RequestName):
//!   401/403 and 400 with an auth code (ExpiredToken, InvalidToken, ...) -> kAuth;
//!   400 AuthorizationHeaderMalformed and 301 (bucket in another region) -> kConfig;
//!   404 -> kNotFound (bucket or object); 409 -> kConflict; 412 -> kAlreadyExists;
//!   429, 5xx (after the client's retries) -> kNetwork; anything else -> kData.
Error S3StatusError(std::string_view op, std::string_view location, std::string_view endpoint,
                    const http::Response& response);

}  // namespace databox::fileio::s3
