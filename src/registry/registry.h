// Loading and validating databox.toml. Validation collects EVERY problem (file:line, message,
// hint) instead of stopping at the first; no problem message ever contains a secret value.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "common/error.h"
#include "registry/model.h"

namespace databox::registry {

//! One thing wrong with the registry file.
struct Problem {
  std::string file;     //!< the config file (as given)
  int line = 0;         //!< 1-based; 0 when the problem has no single location
  std::string message;  //!< what is wrong, naming the source/resource/key
  std::string hint;     //!< what to do about it (may be empty)

  //! "file:line: message (hint: ...)".
  std::string ToString() const;
};

//! Every problem found in a registry file, in file order.
struct ValidationReport {
  std::vector<Problem> problems;

  bool ok() const { return problems.empty(); }
  //! One problem per line.
  std::string ToString() const;
};

//! Looks up an environment variable; injectable so tests need not touch the process environment.
using EnvLookup = std::function<std::optional<std::string>(const std::string&)>;

struct LoadOptions {
  //! Environment lookup; default: the process environment. A `.env` file beside the config file
  //! is consulted for variables the environment does not define.
  EnvLookup env;
};

//! Parses, applies defaults, resolves paths and secrets, and validates. Fails with a kConfig error
//! whose message lists all problems (same text as Validate(path).ToString()).
Result<Registry> LoadRegistry(const std::filesystem::path& path, const LoadOptions& options = {});

//! All problems in the file at `path` (empty report = valid). In replay mode (project.http.replay
//! set) a referenced secret may be absent from the environment; otherwise its absence is a problem.
ValidationReport Validate(const std::filesystem::path& path, const LoadOptions& options = {});

}  // namespace databox::registry
