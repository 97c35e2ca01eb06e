// Bytes as URL-safe and printable text: percent-encoding (RFC 3986) and hex. One encoder for
// every caller: query strings and REST paths, the URL-encoded forms of secrets that redaction
// masks, and the canonical URIs and queries SigV4 signs (which must match AWS byte for byte).
#pragma once

#include <string>
#include <string_view>

namespace databox {

//! `text` percent-encoded: every byte except RFC 3986's unreserved characters
//! (A-Z a-z 0-9 - _ . ~) becomes %XX with upper-case hex; "/" is kept too when `keep_slash` (a
//! path such as an S3 object key), else encoded (a query value or a path segment). Independent
//! of the C locale.
std::string UrlEncode(std::string_view text, bool keep_slash = false);

//! Percent-decoding of a URL component; "+" becomes a space when `plus_is_space`. A "%" not
//! followed by two hex digits is kept as written.
std::string UrlDecode(std::string_view text, bool plus_is_space = true);

//! Lower-case hex of raw bytes, two digits a byte.
std::string HexEncode(std::string_view bytes);

}  // namespace databox
