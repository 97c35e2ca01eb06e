#include "registry/env.h"

#include <fstream>
#include <system_error>

namespace databox::registry {
namespace {

bool IsNameStart(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; }
bool IsNameChar(char c) { return IsNameStart(c) || (c >= '0' && c <= '9'); }

bool IsName(std::string_view s) {
  if (s.empty() || !IsNameStart(s.front())) return false;
  for (char c : s) {
    if (!IsNameChar(c)) return false;
  }
  return true;
}

std::string_view Trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return {};
  const auto last = s.find_last_not_of(" \t\r");
  return s.substr(first, last - first + 1);
}

}  // namespace

std::optional<std::string> ParseEnvReference(std::string_view text) {
  if (text.size() < 4 || !text.starts_with("${") || !text.ends_with("}")) return std::nullopt;
  std::string_view name = text.substr(2, text.size() - 3);
  if (!IsName(name)) return std::nullopt;
  return std::string(name);
}

Result<std::vector<EnvReference>> FindEnvReferences(std::string_view text) {
  std::vector<EnvReference> refs;
  for (std::size_t pos = text.find("${"); pos != std::string_view::npos;
       pos = text.find("${", pos)) {
    const std::size_t close = text.find('}', pos + 2);
    if (close == std::string_view::npos) {
      return MakeError(ErrorKind::kConfig,
                       "unclosed ${ in the value: write ${NAME} or ${NAME:-default}");
    }
    std::string_view inner = text.substr(pos + 2, close - pos - 2);
    EnvReference ref;
    ref.begin = pos;
    ref.end = close + 1;
    if (const auto sep = inner.find(":-"); sep != std::string_view::npos) {
      ref.fallback = std::string(inner.substr(sep + 2));
      inner = inner.substr(0, sep);
    }
    if (!IsName(inner)) {
      return MakeError(ErrorKind::kConfig,
                       "'" + std::string(text.substr(pos, close + 1 - pos)) +
                           "' is not a variable reference: write ${NAME} or ${NAME:-default} "
                           "with NAME matching [A-Za-z_][A-Za-z0-9_]*");
    }
    ref.name = std::string(inner);
    refs.push_back(std::move(ref));
    pos = close + 1;
  }
  return refs;
}

bool MentionsEnvReference(std::string_view text) {
  return text.find("${") != std::string_view::npos;
}

Result<std::map<std::string, std::string>> ReadDotEnv(const std::filesystem::path& path) {
  std::map<std::string, std::string> values;
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return values;
  std::ifstream in(path);
  if (!in) {
    return MakeError(ErrorKind::kConfig,
                     "cannot read " + path.string() + ": check the file's permissions");
  }
  std::string raw;
  int line_no = 0;
  while (std::getline(in, raw)) {
    ++line_no;
    std::string_view line = Trim(raw);
    if (line.empty() || line.front() == '#') continue;
    if (line.starts_with("export ")) line = Trim(line.substr(7));
    const auto eq = line.find('=');
    std::string_view key = eq == std::string_view::npos ? line : Trim(line.substr(0, eq));
    if (eq == std::string_view::npos || !IsName(key)) {
      return MakeError(ErrorKind::kConfig,
                       path.string() + ":" + std::to_string(line_no) +
                           ": expected KEY=VALUE with KEY matching [A-Za-z_][A-Za-z0-9_]*");
    }
    std::string_view value = Trim(line.substr(eq + 1));
    if (value.size() >= 2 && (value.front() == '"' || value.front() == '\'') &&
        value.back() == value.front()) {
      value = value.substr(1, value.size() - 2);
    }
    values[std::string(key)] = std::string(value);
  }
  return values;
}

}  // namespace databox::registry
