#include "sources/usfws/python_text.h"

#include <algorithm>
#include <cstdint>
#include <nlohmann/json.hpp>

#include "common/encoding.h"

namespace databox::source {
namespace {

//! The code point at text[*i] (advancing *i past it); a byte that does not start valid UTF-8 is
//! returned as itself.
char32_t NextCodePoint(std::string_view text, std::size_t* i) {
  const auto b = static_cast<unsigned char>(text[*i]);
  const std::size_t len = b < 0x80           ? 1
                          : (b >> 5) == 0x6  ? 2
                          : (b >> 4) == 0xe  ? 3
                          : (b >> 3) == 0x1e ? 4
                                             : 0;
  if (len <= 1 || *i + len > text.size()) {
    ++*i;
    return b;
  }
  char32_t cp = b & (0xff >> (len + 1));
  for (std::size_t k = 1; k < len; ++k)
    cp = (cp << 6) | (static_cast<unsigned char>(text[*i + k]) & 0x3f);
  *i += len;
  return cp;
}

bool IsPythonSpace(char32_t c) {
  return (c >= 0x09 && c <= 0x0d) || (c >= 0x1c && c <= 0x20) || c == 0x85 || c == 0xa0 ||
         c == 0x1680 || (c >= 0x2000 && c <= 0x200a) || c == 0x2028 || c == 0x2029 || c == 0x202f ||
         c == 0x205f || c == 0x3000;
}

//! Cf (format) code points, the commonly met ones.
bool IsFormatCharacter(char32_t c) {
  return c == 0xad || (c >= 0x600 && c <= 0x605) || c == 0x61c || c == 0x6dd || c == 0x70f ||
         c == 0x180e || (c >= 0x200b && c <= 0x200f) || (c >= 0x202a && c <= 0x202e) ||
         (c >= 0x2060 && c <= 0x2064) || (c >= 0x2066 && c <= 0x206f) || c == 0xfeff ||
         (c >= 0xfff9 && c <= 0xfffb) || c == 0xe0001 || (c >= 0xe0020 && c <= 0xe007f);
}

bool IsPrintable(char32_t c) {
  if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) return false;          // Cc
  if (c != 0x20 && IsPythonSpace(c)) return false;                 // Zs, Zl, Zp
  if (IsFormatCharacter(c)) return false;                          // Cf
  if ((c >= 0xe000 && c <= 0xf8ff) || c >= 0xf0000) return false;  // Co
  return true;
}

void AppendHex(std::string& out, char32_t c, int digits) {
  static constexpr char kHex[] = "0123456789abcdef";
  for (int shift = (digits - 1) * 4; shift >= 0; shift -= 4) out += kHex[(c >> shift) & 0xf];
}

}  // namespace

std::string CollapseWhitespace(std::string_view text) {
  std::string out;
  bool pending_space = false;
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t start = i;
    if (IsPythonSpace(NextCodePoint(text, &i))) {
      pending_space = !out.empty();
      continue;
    }
    if (pending_space) out += ' ';
    pending_space = false;
    out.append(text.substr(start, i - start));
  }
  return out;
}

std::string PythonRepr(std::string_view text) {
  const bool has_single = text.find('\'') != std::string_view::npos;
  const bool has_double = text.find('"') != std::string_view::npos;
  const char quote = has_single && !has_double ? '"' : '\'';
  std::string out(1, quote);
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t start = i;
    const char32_t c = NextCodePoint(text, &i);
    if (c == '\\' || c == static_cast<char32_t>(quote)) {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (IsPrintable(c)) {
      out.append(text.substr(start, i - start));
    } else if (c < 0x100) {
      out += "\\x";
      AppendHex(out, c, 2);
    } else if (c < 0x10000) {
      out += "\\u";
      AppendHex(out, c, 4);
    } else {
      out += "\\U";
      AppendHex(out, c, 8);
    }
  }
  out += quote;
  return out;
}

std::string AsciiJsonArray(const std::vector<std::string>& values) {
  return nlohmann::json(values).dump(-1, ' ', /*ensure_ascii=*/true);
}

std::string FormQuery(std::vector<std::pair<std::string, std::string>> params) {
  std::ranges::sort(params);
  auto encode = [](std::string_view text) {
    std::string out;
    for (char c : text) out += c == ' ' ? std::string("+") : UrlEncode(std::string_view(&c, 1));
    return out;
  };
  std::string query;
  for (const auto& [key, value] : params) {
    if (!query.empty()) query += '&';
    query += encode(key) + "=" + encode(value);
  }
  return query;
}

}  // namespace databox::source
