// Text exactly as the reference implementation (Python) writes it, where our output must match it
// byte for byte: run ids hash a Python repr, searches send Python's form encoding and compact
// ASCII JSON, and stored values are whitespace-collapsed the way str.split() collapses.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace databox::source {

//! `" ".join(text.split())`: runs of Unicode whitespace (str.isspace: ASCII whitespace, U+001C..
//! U+001F, U+0085, U+00A0, U+1680, U+2000..U+200A, U+2028, U+2029, U+202F, U+205F, U+3000)
//! become one space; leading and trailing whitespace goes. `text` is UTF-8.
std::string CollapseWhitespace(std::string_view text);

//! `repr(text)` of a Python str: quoted with ', or with " when `text` holds ' but no "; the
//! backslash and the chosen quote escaped; \t \n \r; other non-printable code points as \xhh,
//! \uhhhh or \Uhhhhhhhh. Non-printable means Python's str.isprintable() is false, for the
//! categories Cc, Cf, Zl, Zp, Zs (except the space) and Co; unassigned code points (Cn) are
//! written as they are, which Python would escape.
std::string PythonRepr(std::string_view text);

//! `json.dumps(values, separators=(",", ":"))` with ensure_ascii: a compact JSON array of
//! strings, every non-ASCII character (and DEL) as \uXXXX, astral ones as surrogate pairs.
std::string AsciiJsonArray(const std::vector<std::string>& values);

//! `urllib.parse.urlencode(sorted(params))`: keys in byte order, each key and value form-encoded
//! (space as "+", everything but A-Z a-z 0-9 - _ . ~ as %XX, so "$top" is "%24top").
std::string FormQuery(std::vector<std::pair<std::string, std::string>> params);

}  // namespace databox::source
