#include "sources/usfws/targets.h"

#include <array>
#include <fstream>
#include <iterator>
#include <limits>
#include <map>
#include <regex>
#include <set>

#include "common/utf8.h"
#include "source/records.h"
#include "sources/usfws/python_text.h"

namespace databox::source {
namespace {

//! A target list is a few hundred short rows; anything much bigger is the wrong file.
constexpr std::uintmax_t kMaxTargetsFileBytes = std::uintmax_t{1} << 20;
constexpr std::array<std::string_view, 3> kColumns = {"species_code", "common_name",
                                                      "scientific_name"};

std::string Shown(std::string_view s) {
  constexpr std::size_t kMaxShown = 40;
  std::string out;
  for (char c : s.substr(0, kMaxShown)) {
    const auto b = static_cast<unsigned char>(c);
    out += (b < 0x20 || b == 0x7f) ? '?' : c;
  }
  return "'" + out + (s.size() > kMaxShown ? "...'" : "'");
}

//! Collects the problems of one file, each prefixed with the file and row.
class Problems {
 public:
  explicit Problems(std::string_view where) : where_(where) {}
  void Add(int row, const std::string& message) {
    list_.push_back(where_ + (row > 0 ? " row " + std::to_string(row) : "") + ": " + message);
  }
  bool empty() const { return list_.empty(); }
  Error ToError() const {
    std::string message = "targets: " + std::to_string(list_.size()) + " problem" +
                          (list_.size() == 1 ? "" : "s") + "; nothing was requested:";
    for (const std::string& p : list_) message += "\n  " + p;
    return Error{ErrorKind::kConfig, std::move(message)};
  }

 private:
  std::string where_;
  std::vector<std::string> list_;
};

//! `raw` collapsed, after reporting what is wrong with it.
std::string CheckedValue(const std::string& raw, std::string_view column, int row,
                         const registry::TargetSettings& settings, Problems& problems) {
  if (!IsValidUtf8(raw)) {
    problems.Add(row, std::string(column) + " is not valid UTF-8");
    return raw;
  }
  std::string value = CollapseWhitespace(raw);
  if (value.empty()) {
    problems.Add(row, std::string(column) + " is empty");
  } else if (std::ranges::any_of(value,
                                 [](char c) { return static_cast<unsigned char>(c) < 0x20; })) {
    problems.Add(row, "control character in " + std::string(column) + " " + Shown(value));
  } else if (const std::size_t chars = Utf8Length(value);
             chars > static_cast<std::size_t>(settings.max_text_chars)) {
    problems.Add(row, std::string(column) + " has " + std::to_string(chars) +
                          " characters, more than " + std::to_string(settings.max_text_chars));
  }
  return value;
}

Result<std::regex> CodePattern(const registry::TargetSettings& settings) {
  try {
    return std::regex(settings.code_pattern, std::regex::ECMAScript);
  } catch (const std::regex_error&) {
    return MakeError(ErrorKind::kConfig, "targets: code_pattern " + Shown(settings.code_pattern) +
                                             " does not compile; fix [source.targets]");
  }
}

//! Checks and collapses every target into `problems`.
void CheckTargets(std::vector<Target>& targets, const registry::TargetSettings& settings,
                  const std::regex& pattern, Problems& problems) {
  std::map<std::string, int, std::less<>> first_row;
  for (std::size_t i = 0; i < targets.size(); ++i) {
    Target& target = targets[i];
    const int row = target.row > 0 ? target.row : static_cast<int>(i) + 1;
    target.code = CheckedValue(target.code, "species_code", row, settings, problems);
    target.common_name = CheckedValue(target.common_name, "common_name", row, settings, problems);
    target.scientific_name =
        CheckedValue(target.scientific_name, "scientific_name", row, settings, problems);
    if (!target.code.empty() && !std::regex_match(target.code, pattern)) {
      problems.Add(
          row, "species_code " + Shown(target.code) + " does not match " + settings.code_pattern);
    }
    if (const auto [it, inserted] = first_row.emplace(target.code, row); !inserted) {
      problems.Add(row, "duplicate species_code " + Shown(target.code) + " (first in row " +
                            std::to_string(it->second) + ")");
    }
  }
  if (targets.size() > static_cast<std::size_t>(settings.max_targets)) {
    problems.Add(0, std::to_string(targets.size()) + " targets, more than the limit of " +
                        std::to_string(settings.max_targets) + " (split the list into runs)");
  }
}

//! Reports a header that is not exactly the three columns (any order); true when it is.
bool CheckHeader(std::string_view text, Problems& problems) {
  const std::vector<std::string> header = TextHeader(text, registry::ResponseFormat::kCsv);
  if (header.empty()) return true;  // an empty file: "no targets"
  const std::multiset<std::string> names(header.begin(), header.end());
  const std::multiset<std::string> expected(kColumns.begin(), kColumns.end());
  if (names == expected) return true;
  problems.Add(0, "the header must be '" + std::string(kTargetsHeader) +
                      "' (columns in any order), not " + Shown(text.substr(0, text.find('\n'))));
  return false;
}

}  // namespace

Status NormalizeTargets(std::vector<Target>& targets, const registry::TargetSettings& settings,
                        std::string_view where) {
  DATABOX_ASSIGN_OR_RETURN(const std::regex pattern, CodePattern(settings));
  Problems problems(where);
  CheckTargets(targets, settings, pattern, problems);
  if (!problems.empty()) return std::unexpected(problems.ToError());
  return Ok();
}

Result<std::vector<Target>> ParseTargetsText(std::string_view text,
                                             const registry::TargetSettings& settings,
                                             std::string_view where) {
  DATABOX_ASSIGN_OR_RETURN(const std::regex pattern, CodePattern(settings));
  if (text.starts_with(kUtf8ByteOrderMark)) text.remove_prefix(kUtf8ByteOrderMark.size());
  Problems problems(where);
  if (!CheckHeader(text, problems)) return std::unexpected(problems.ToError());
  std::vector<Target> targets;
  auto sink = [&](Json record) -> Status {
    targets.push_back(Target{
        record.value("species_code", std::string()), record.value("common_name", std::string()),
        record.value("scientific_name", std::string()), static_cast<int>(targets.size()) + 1});
    return Ok();
  };
  int64_t short_rows = 0;  // RDB only; CSV rows with the wrong field count are errors
  auto read = ParseTextRecords(text, registry::ResponseFormat::kCsv,
                               std::numeric_limits<int64_t>::max(), sink, &short_rows);
  if (!read) problems.Add(0, "not a CSV target list: " + read.error().message);
  if (problems.empty() && targets.empty()) {
    problems.Add(0,
                 "no targets: the source runs only with a caller-supplied list (a CSV file "
                 "with the header '" +
                     std::string(kTargetsHeader) + "' and one row per target)");
  }
  if (problems.empty()) CheckTargets(targets, settings, pattern, problems);
  if (!problems.empty()) return std::unexpected(problems.ToError());
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
