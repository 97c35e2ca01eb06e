// Helpers shared by this module's tests.
#pragma once

#include <string>
#include <string_view>

namespace databox::avro {

//! Bytes as space-separated lowercase hex ("06 66 6f 6f"), as the Avro spec prints them.
inline std::string Hex(std::string_view bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    if (!out.empty()) out += ' ';
    out += kHex[c >> 4];
    out += kHex[c & 0xF];
  }
  return out;
}

}  // namespace databox::avro
