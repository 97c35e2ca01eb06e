// Caller-supplied targets of a targeted source (`databox run usfws --targets FILE`).
//
// File format: CSV (RFC 4180: a field may be quoted with ", holding commas, doubled quotes and
// line breaks), UTF-8, with the header line
//   species_code,common_name,scientific_name
// (columns in any order, no others) and one target per row. A UTF-8 byte order mark, CRLF line
// ends and blank lines are accepted.
//
// Every value is whitespace-collapsed and trimmed as Python's " ".join(value.split()) does, and
// must then be non-empty, at most max_text_chars characters long and free of characters below
// U+0020; the code must match code_pattern. Codes are unique; at most max_targets rows.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "common/error.h"
#include "registry/model.h"

namespace databox::source {

struct Target {
  std::string code;             //!< species_code: unique, matches TargetSettings::code_pattern
  std::string common_name;      //!< searched as the species facet and as an exact phrase
  std::string scientific_name;  //!< searched as an exact phrase
  int row = 0;                  //!< 1-based data row in the file (the header is row 0)
};

//! The header a target file must have.
inline constexpr std::string_view kTargetsHeader = "species_code,common_name,scientific_name";

//! Parses and validates targets CSV text. Every violation is reported in one kConfig error, each
//! on its own line with its row ("targets.csv row 4: duplicate species_code 'amerob' (first in
//! row 2)"): a wrong header, rows that are not CSV, no targets at all, more than max_targets, a
//! code not matching code_pattern, a duplicate code, an empty value, a value longer than
//! max_text_chars characters, a control character, invalid UTF-8. `where` names the file.
Result<std::vector<Target>> ParseTargetsText(std::string_view text,
                                             const registry::TargetSettings& settings,
                                             std::string_view where);

//! Collapses the values of `targets` and checks them, and the list, as ParseTargetsText does
//! (an empty list passes here; the caller decides whether it may be empty). Every violation is
//! in one kConfig error; rows name the targets (Target::row, else their 1-based position).
Status NormalizeTargets(std::vector<Target>& targets, const registry::TargetSettings& settings,
                        std::string_view where);

//! Reads `path` (kIo when unreadable, kConfig when larger than 1 MiB) and ParseTargetsText.
Result<std::vector<Target>> ParseTargets(const std::filesystem::path& path,
                                         const registry::TargetSettings& settings);

}  // namespace databox::source
