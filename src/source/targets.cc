#include "source/targets.h"

#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <regex>

namespace databox::source {
namespace {

//! A target list is a few hundred short lines; anything much bigger is the wrong file.
constexpr std::uintmax_t kMaxTargetsFileBytes = std::uintmax_t{1} << 20;
constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";

//! The number of code points in valid UTF-8 `s`, or nullopt when `s` is not valid UTF-8.
std::optional<std::size_t> Utf8Length(std::string_view s) {
  std::size_t count = 0;
  for (std::size_t i = 0; i < s.size(); ++count) {
    const auto b = static_cast<unsigned char>(s[i]);
    const std::size_t len = b < 0x80           ? 1
                            : (b >> 5) == 0x6  ? 2
                            : (b >> 4) == 0xe  ? 3
                            : (b >> 3) == 0x1e ? 4
                                               : 0;
    if (len == 0 || i + len > s.size() || (len == 2 && b < 0xc2)) return std::nullopt;
    for (std::size_t k = 1; k < len; ++k) {
      if ((static_cast<unsigned char>(s[i + k]) & 0xc0) != 0x80) return std::nullopt;
    }
    i += len;
  }
  return count;
}

//! True for C0 controls, DEL and C1 controls (U+0080..U+009F, encoded C2 80..C2 9F).
bool HasControlCharacter(std::string_view s) {
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto b = static_cast<unsigned char>(s[i]);
    if (b < 0x20 || b == 0x7f) return true;
    if (b == 0xc2 && i + 1 < s.size()) {
      const auto next = static_cast<unsigned char>(s[i + 1]);
      if (next >= 0x80 && next <= 0x9f) return true;
    }
  }
  return false;
}

bool IsBlank(char c) { return c == ' ' || c == '\t'; }

std::string_view TrimBlanks(std::string_view s) {
  while (!s.empty() && IsBlank(s.front())) s.remove_prefix(1);
  while (!s.empty() && IsBlank(s.back())) s.remove_suffix(1);
  return s;
}

std::string Shown(std::string_view s) {
  constexpr std::size_t kMaxShown = 40;
  std::string out;
  for (char c : s.substr(0, kMaxShown)) {
    const auto b = static_cast<unsigned char>(c);
    out += (b < 0x20 || b == 0x7f) ? '?' : c;
  }
  return "'" + out + (s.size() > kMaxShown ? "...'" : "'");
}

}  // namespace

Result<std::vector<Target>> ParseTargetsText(std::string_view text,
                                             const registry::TargetSettings& settings,
                                             std::string_view where) {
  std::regex pattern;
  try {
    pattern = std::regex(settings.code_pattern, std::regex::ECMAScript);
  } catch (const std::regex_error&) {
    return MakeError(ErrorKind::kConfig, "targets: code_pattern " + Shown(settings.code_pattern) +
                                             " does not compile; fix [source.targets]");
  }
  if (text.starts_with(kByteOrderMark)) text.remove_prefix(kByteOrderMark.size());
  const std::string file(where);
  std::vector<std::string> problems;
  auto report = [&](int line, const std::string& message) {
    problems.push_back(file + ":" + std::to_string(line) + ": " + message);
  };
  std::vector<Target> targets;
  std::map<std::string, int, std::less<>> first_line;
  int line_no = 0;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(at, end - at);
    at = end + 1;
    ++line_no;
    if (line.ends_with('\r')) line.remove_suffix(1);
    const std::string_view trimmed = TrimBlanks(line);
    if (trimmed.empty() || trimmed.front() == '#') continue;

    if (!Utf8Length(trimmed)) {
      report(line_no, "not valid UTF-8");
      continue;
    }
    std::size_t split = 0;
    while (split < trimmed.size() && !IsBlank(trimmed[split])) ++split;
    Target target{std::string(trimmed.substr(0, split)),
                  std::string(TrimBlanks(trimmed.substr(split))), line_no};
    if (!std::regex_match(target.code, pattern)) {
      report(line_no, "code " + Shown(target.code) + " does not match " + settings.code_pattern);
    }
    if (const auto [it, inserted] = first_line.emplace(target.code, line_no); !inserted) {
      report(line_no, "duplicate code " + Shown(target.code) + " (first on line " +
                          std::to_string(it->second) + ")");
    }
    if (target.text.empty()) {
      report(line_no, "target " + Shown(target.code) + " has no text (write: <code> <text>)");
    } else if (HasControlCharacter(target.text) || HasControlCharacter(target.code)) {
      report(line_no, "control character in target " + Shown(target.code));
    } else if (const std::size_t chars = *Utf8Length(target.text);
               chars > static_cast<std::size_t>(settings.max_text_chars)) {
      report(line_no, "text has " + std::to_string(chars) + " characters, more than " +
                          std::to_string(settings.max_text_chars));
    }
    targets.push_back(std::move(target));
  }
  if (targets.empty()) {
    problems.push_back(file +
                       ": no targets: the source runs only with a caller-supplied list "
                       "(one '<code> <text>' per line)");
  } else if (targets.size() > static_cast<std::size_t>(settings.max_targets)) {
    problems.push_back(file + ":" + std::to_string(targets[settings.max_targets].line) + ": " +
                       std::to_string(targets.size()) + " targets, more than the limit of " +
                       std::to_string(settings.max_targets) + " (split the list into runs)");
  }
  if (!problems.empty()) {
    std::string message = "targets: " + std::to_string(problems.size()) + " problem" +
                          (problems.size() == 1 ? "" : "s") + "; nothing was requested:";
    for (const std::string& p : problems) message += "\n  " + p;
    return MakeError(ErrorKind::kConfig, std::move(message));
  }
  return targets;
}

Result<std::vector<Target>> ParseTargets(const std::filesystem::path& path,
                                         const registry::TargetSettings& settings) {
  std::error_code ec;
  const std::uintmax_t size = std::filesystem::file_size(path, ec);
  if (ec) {
    return MakeError(ErrorKind::kIo, "targets: cannot read " + path.string() + ": " + ec.message());
  }
  if (size > kMaxTargetsFileBytes) {
    return MakeError(ErrorKind::kConfig, "targets: " + path.string() + " has " +
                                             std::to_string(size) +
                                             " bytes, more than a target list needs (1 MiB)");
  }
  std::ifstream in(path, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!in && !in.eof()) {
    return MakeError(ErrorKind::kIo, "targets: read of " + path.string() + " failed");
  }
  return ParseTargetsText(text, settings, path.string());
}

}  // namespace databox::source
