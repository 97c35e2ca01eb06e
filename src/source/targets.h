// Caller-supplied targets of a targeted source (`databox run usfws --targets FILE`).
//
// File format (UTF-8 text, one target per line):
//   # comment lines and blank lines are ignored
//   <code><whitespace><text>
// `code` is the first whitespace-delimited token (e.g. an eBird species code), `text` the rest
// of the line with surrounding spaces removed (e.g. the name searched for). A UTF-8 byte order
// mark and CRLF line ends are accepted.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "common/error.h"
#include "registry/model.h"

namespace databox::source {

struct Target {
  std::string code;  //!< unique, matches TargetSettings::code_pattern
  std::string text;  //!< non-empty, <= max_text_chars characters, no control characters
  int line = 0;      //!< 1-based line in the file
};

//! Parses and validates targets text. Every violation is reported in one kConfig error, each
//! on its own line with its line number ("targets.txt:4: duplicate code 'amerob' (first on
//! line 2)"): no targets at all, more than max_targets, a code not matching code_pattern, a
//! duplicate code, missing text, text longer than max_text_chars characters, control
//! characters, invalid UTF-8. `where` names the file in messages.
Result<std::vector<Target>> ParseTargetsText(std::string_view text,
                                             const registry::TargetSettings& settings,
                                             std::string_view where);

//! Reads `path` (kIo when unreadable, kConfig when larger than 1 MiB) and ParseTargetsText.
Result<std::vector<Target>> ParseTargets(const std::filesystem::path& path,
                                         const registry::TargetSettings& settings);

}  // namespace databox::source
