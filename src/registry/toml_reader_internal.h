// Internal: typed, problem-collecting access to one TOML table. Every accessor records the key as
// known, so ReportUnknownKeys() can flag everything else (with a "did you mean" hint).
#pragma once

#include <toml++/toml.h>

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/enum_names.h"
#include "registry/registry.h"

namespace databox::registry::internal {

//! How ${NAME} and ${NAME:-default} in non-secret values resolve (docs/registry.md,
//! "Variables"): the environment, then the .env file, then the default; unset without a default
//! is a problem. A variable with a declared range must hold an integer inside it.
struct Variables {
  //! The value of NAME; nullopt when unset (an empty value counts as unset).
  std::function<std::optional<std::string>(const std::string&)> lookup;
  //! [variables] NAME = { min = .., max = .. }: inclusive integer ranges.
  std::map<std::string, std::pair<int64_t, int64_t>, std::less<>> ranges;
};

//! Collects problems for one file, and carries how the file's variables resolve (every reader
//! of the file shares both).
class Problems {
 public:
  explicit Problems(std::string file) : file_(std::move(file)) {}

  //! Enables ${...} expansion in non-secret values; `variables` must outlive every reader.
  void set_variables(const Variables* variables) { variables_ = variables; }
  const Variables* variables() const { return variables_; }

  void Add(int line, std::string message, std::string hint = "");
  //! The config file (as given), as problems name it.
  const std::string& file() const { return file_; }
  //! The problems sorted by line (stable, so same-line problems keep their order).
  ValidationReport Take();

 private:
  std::string file_;
  std::vector<Problem> problems_;
  const Variables* variables_ = nullptr;  //!< not owned; null = values are taken verbatim
};

//! 1-based line where `node` starts (0 if unknown).
int LineOf(const toml::node& node);

class TableReader {
 public:
  //! `context` prefixes messages, e.g. "[project.catalog]" or "source 'ebird' resource 'hotspots'".
  TableReader(const toml::table& table, std::string context, Problems& problems)
      : table_(table), context_(std::move(context)), problems_(problems) {}

  const std::string& context() const { return context_; }
  int line() const { return internal::LineOf(table_); }
  //! Line of `key`'s value, or of the table when absent.
  int LineOf(std::string_view key) const;
  bool Has(std::string_view key) const;
  //! Reports a problem at `key` (or the table) with this reader's context.
  void Report(std::string_view key, const std::string& message, std::string hint = "") const;

  //! A string; ${NAME} and ${NAME:-default} references in it are resolved.
  std::optional<std::string> String(std::string_view key, bool required = false);
  //! A string taken as written (secret fields resolve their one reference themselves).
  std::optional<std::string> Verbatim(std::string_view key);
  //! An integer, or a string of references that resolves to one; both checked against the range.
  std::optional<int64_t> Int(std::string_view key, int64_t min, int64_t max);
  //! Accepts integers and floats, or a string of references that resolves to a number.
  std::optional<double> Number(std::string_view key, double min, double max);
  //! A boolean, or a string of references that resolves to true/false (or 1/0).
  std::optional<bool> Bool(std::string_view key);
  const toml::table* Table(std::string_view key);
  const toml::array* Array(std::string_view key);
  //! A string or an array of strings.
  std::optional<std::vector<std::string>> StringList(std::string_view key);
  //! A table of scalars; numbers and booleans are converted to their TOML text, references in
  //! strings are resolved.
  std::optional<std::map<std::string, std::string>> StringMap(std::string_view key);

  //! A string that must name one of the enum's values (common/enum_names.h).
  template <typename E, std::size_t N>
  std::optional<E> Enum(std::string_view key, const EnumNames<E, N>& names) {
    auto text = String(key);
    if (!text) return std::nullopt;
    if (auto value = ValueOf(names, *text)) return value;
    Report(key, "'" + std::string(key) + "' has unknown value '" + *text + "'",
           "use one of: " + JoinNames(names));
    return std::nullopt;
  }

  //! Flags keys never asked about. Call after every accessor for this table ran.
  void ReportUnknownKeys();

 private:
  const toml::node* Get(std::string_view key);
  //! `text` with its references resolved; nullopt after reporting a problem at `line` about
  //! `label` (the key). `from` receives the names of the variables used.
  std::optional<std::string> Expand(int line, std::string_view label, const std::string& text,
                                    std::string* from = nullptr) const;
  //! The resolved text of a string node given for a numeric or boolean key; nullopt after a
  //! problem.
  std::optional<std::string> NumericText(std::string_view key, const toml::node& node,
                                         std::string* from) const;

  const toml::table& table_;
  std::string context_;
  Problems& problems_;
  std::set<std::string, std::less<>> known_;
};

}  // namespace databox::registry::internal
