#include "common/utf8.h"

#include <simdjson.h>

#include <algorithm>

namespace databox {

bool IsValidUtf8(std::string_view text) {
  return simdjson::validate_utf8(text.data(), text.size());
}

std::size_t Utf8Length(std::string_view text) {
  // Every code point has exactly one byte that is not a continuation byte (10xxxxxx).
  return static_cast<std::size_t>(std::ranges::count_if(
      text, [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

}  // namespace databox
