// ASCII case folding, independent of the C locale: for the parts of protocols and formats that
// are case-insensitive by definition (HTTP header names, URL schemes and hosts, SQL keywords,
// file extensions). Bytes >= 0x80 are kept as they are.
#pragma once

#include <string>
#include <string_view>

namespace databox {

//! `text` with A-Z turned into a-z.
std::string AsciiLower(std::string_view text);

//! Whether `a` and `b` are equal but for the case of A-Z.
bool AsciiEqualsIgnoreCase(std::string_view a, std::string_view b);

}  // namespace databox
