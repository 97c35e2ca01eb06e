// UTF-8 validation and length, for text on its way into typed columns and for caller-supplied
// values whose length limits count characters.
#pragma once

#include <cstddef>
#include <string_view>

namespace databox {

//! The UTF-8 byte order mark some servers put before a text body.
inline constexpr std::string_view kUtf8ByteOrderMark = "\xEF\xBB\xBF";

//! True when `text` is well-formed UTF-8 (no overlong forms, surrogates or values past U+10FFFF).
bool IsValidUtf8(std::string_view text);

//! The number of code points in `text`, which must be valid UTF-8 (IsValidUtf8).
std::size_t Utf8Length(std::string_view text);

}  // namespace databox
