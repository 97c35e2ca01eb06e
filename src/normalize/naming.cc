#include "normalize/naming.h"

#include <cctype>

#include "common/ascii.h"
#include "normalize/digest.h"

namespace databox::normalize {
namespace {

bool IsAsciiAlnum(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }
bool IsUpper(char c) { return c >= 'A' && c <= 'Z'; }
bool IsLower(char c) { return c >= 'a' && c <= 'z'; }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }

std::string_view Trim(std::string_view s) {
  // Python's str.strip(): ASCII whitespace is what JSON keys realistically carry.
  auto space = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
  while (!s.empty() && space(s.front())) s.remove_prefix(1);
  while (!s.empty() && space(s.back())) s.remove_suffix(1);
  return s;
}

//! Reduced alphabet, then every run of characters outside [A-Za-z0-9_] becomes one `_`.
std::string ReduceAlphabet(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  bool in_run = false;
  for (char c : s) {
    switch (c) {
      case '+':
      case '*':
        c = 'x';
        break;
      case '-':
        c = '_';
        break;
      case '@':
        c = 'a';
        break;
      case '|':
        c = 'l';
        break;
      default:
        break;
    }
    if (IsAsciiAlnum(c) || c == '_') {
      out += c;
      in_run = false;
    } else if (!in_run) {
      out += '_';
      in_run = true;
    }
  }
  return out;
}

//! First word break: before an upper-case letter followed by lower-case letters, when the
//! preceding character is not `_` ("HTTPServer" -> "HTTP_Server"). Matches are left to right
//! and do not overlap: a break consumes the preceding character and the whole word.
std::string BreakBeforeTitleWords(const std::string& s) {
  std::string out;
  std::size_t i = 0;
  while (i < s.size()) {
    if (i + 2 < s.size() && s[i] != '_' && IsUpper(s[i + 1]) && IsLower(s[i + 2])) {
      std::size_t end = i + 2;
      while (end < s.size() && IsLower(s[end])) ++end;
      out += s[i];
      out += '_';
      out.append(s, i + 1, end - (i + 1));
      i = end;
      continue;
    }
    out += s[i];
    ++i;
  }
  return out;
}

//! Second word break: between a lower-case letter or digit and an upper-case letter.
std::string BreakBeforeCapitals(const std::string& s) {
  std::string out;
  std::size_t i = 0;
  while (i < s.size()) {
    if (i + 1 < s.size() && (IsLower(s[i]) || IsDigit(s[i])) && IsUpper(s[i + 1])) {
      out += s[i];
      out += '_';
      out += s[i + 1];
      i += 2;
      continue;
    }
    out += s[i];
    ++i;
  }
  return out;
}

std::string ToSnakeCase(const std::string& reduced) {
  std::string s = AsciiLower(BreakBeforeCapitals(BreakBeforeTitleWords(reduced)));
  if (!s.empty() && IsDigit(s.front())) s.insert(s.begin(), '_');
  std::size_t trailing = 0;
  while (trailing < s.size() && s[s.size() - 1 - trailing] == '_') ++trailing;
  s.replace(s.size() - trailing, trailing, std::string(trailing, 'x'));
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    if (c == '_' && !out.empty() && out.back() == '_') continue;
    out += c;
  }
  return out;
}

std::vector<std::string_view> BreakPath(std::string_view path) {
  std::vector<std::string_view> parts;
  while (true) {
    const std::size_t pos = path.find(kPathSeparator);
    std::string_view part = path.substr(0, pos);
    if (!Trim(part).empty()) parts.push_back(part);
    if (pos == std::string_view::npos) break;
    path.remove_prefix(pos + kPathSeparator.size());
  }
  return parts;
}

}  // namespace

std::string ShortenIdentifier(std::string_view normalized, std::string_view original,
                              std::optional<std::size_t> max_length) {
  if (!max_length || *max_length == 0 || normalized.size() <= *max_length) {
    return std::string(normalized);
  }
  // dlt sizes the tag for a 0.001 collision probability: int(3 * log2(1000) // 8 + 1) = 4 bytes.
  constexpr std::size_t kTagBytes = 4;
  std::string tag = Base64NoPad(Shake128(original, kTagBytes));
  for (char& c : tag) {
    if (c == '/') c = 'a';
    if (c == '+') c = 'b';
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  if (tag.size() > *max_length) return tag.substr(0, *max_length);
  const std::size_t remaining = *max_length - tag.size();
  const std::size_t head = remaining / 2 + remaining % 2;
  const std::size_t tail = remaining / 2;
  std::string out(normalized.substr(0, head));
  out += tag;
  out += normalized.substr(normalized.size() - tail);
  return out;
}

std::string NormalizeIdentifier(std::string_view identifier,
                                std::optional<std::size_t> max_length) {
  const std::string_view trimmed = Trim(identifier);
  if (trimmed.empty()) return std::string(kEmptyKeyName);
  return ShortenIdentifier(ToSnakeCase(ReduceAlphabet(trimmed)), trimmed, max_length);
}

std::string NormalizePath(std::string_view path, std::optional<std::size_t> max_length) {
  std::vector<std::string> parts;
  for (std::string_view part : BreakPath(path))
    parts.push_back(NormalizeIdentifier(part, max_length));
  if (parts.empty()) return std::string(kEmptyKeyName);
  std::string joined;
  for (const std::string& part : parts) {
    if (!joined.empty()) joined += kPathSeparator;
    joined += part;
  }
  return ShortenIdentifier(joined, path, max_length);
}

std::string ShortenFragments(const std::vector<std::string>& fragments,
                             std::optional<std::size_t> max_length) {
  std::string joined;
  for (const std::string& fragment : fragments) {
    if (Trim(fragment).empty()) continue;
    if (!joined.empty()) joined += kPathSeparator;
    joined += fragment;
  }
  return ShortenIdentifier(joined, joined, max_length);
}

}  // namespace databox::normalize
