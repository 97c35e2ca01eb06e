// The one redirect of a pinned file download: a presigned S3 URL (AWS signature version 4, query
// form) for exactly the expected object, checked strictly before it is fetched.
#pragma once

#include <string>
#include <string_view>

namespace databox::source {

//! Longest validity a presigned download URL may declare (X-Amz-Expires, seconds).
inline constexpr int kMaxPresignedExpiresSeconds = 60;

//! Empty when `location` is `expected_url` (scheme, host and path exactly, no fragment)
//! followed by a query of exactly the six presigned keys X-Amz-Algorithm, X-Amz-Credential,
//! X-Amz-Date, X-Amz-Expires, X-Amz-SignedHeaders and X-Amz-Signature, each once with a
//! value, X-Amz-Expires a whole number of seconds in 1..kMaxPresignedExpiresSeconds;
//! otherwise what is wrong, naming keys but never a query value other than X-Amz-Expires.
std::string PresignedUrlProblem(std::string_view location, std::string_view expected_url);

}  // namespace databox::source
