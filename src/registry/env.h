// ${ENV_VAR} references and `.env` files.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/error.h"

namespace databox::registry {

//! The variable name if `text` is exactly "${NAME}" with NAME matching [A-Za-z_][A-Za-z0-9_]*.
std::optional<std::string> ParseEnvReference(std::string_view text);

//! One ${NAME} or ${NAME:-default} inside a non-secret value.
struct EnvReference {
  std::string name;
  std::optional<std::string> fallback;  //!< the text after ":-" (may be empty)
  std::size_t begin = 0;                //!< offset of "${" in the value
  std::size_t end = 0;                  //!< offset just past the closing "}"
};

//! Every reference in `text`, in order. kConfig when a "${" is not a well-formed reference
//! (unclosed, or a name not matching [A-Za-z_][A-Za-z0-9_]*).
Result<std::vector<EnvReference>> FindEnvReferences(std::string_view text);

//! True if `text` contains "${" anywhere (a reference, possibly malformed or embedded).
bool MentionsEnvReference(std::string_view text);

//! Reads KEY=VALUE lines from a .env file: blank lines and '#' comments skipped, optional
//! `export ` prefix, values optionally in single or double quotes. A missing file is an empty map.
//! Malformed lines fail with kConfig naming the file and line (never the line's content).
Result<std::map<std::string, std::string>> ReadDotEnv(const std::filesystem::path& path);

}  // namespace databox::registry
