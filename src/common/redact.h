// Process-wide secret registry: every error message and log line that may contain a URL,
// header or response body passes through Redact()/RedactUrl() before it leaves a module.
#pragma once

#include <string>
#include <string_view>

namespace databox {

//! Shortest value worth registering; shorter ones would mask ordinary text.
inline constexpr std::size_t kMinSecretLength = 4;

//! Remembers `value` (and its URL-encoded form) for Redact(). Thread-safe; values shorter
//! than kMinSecretLength are ignored. Secrets stay registered for the life of the process.
void RegisterSecret(std::string_view value);

//! `text` with every registered secret (raw or URL-encoded) replaced by "***". Thread-safe.
std::string Redact(std::string_view text);

//! True for query parameter names that carry credentials (key, api_key, token, signature,
//! X-Amz-Credential, ...). Case-insensitive. Names such as "datasetKey" are not credentials.
bool IsCredentialParamName(std::string_view name);

//! True for header names that carry credentials (Authorization, token, X-Api-Key, Cookie,
//! X-eBirdApiToken, ...). Case-insensitive.
bool IsCredentialHeaderName(std::string_view name);

//! Redact(url) that also masks the values of credential query parameters and the password of
//! a `user:password@` authority, whether or not they were registered.
std::string RedactUrl(std::string_view url);

}  // namespace databox
