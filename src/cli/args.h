// A small command-line argument parser: declared options, positionals, clear usage errors.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/error.h"

namespace databox::cli {

//! One option a command accepts.
struct OptionSpec {
  std::string name;         //!< long name without dashes: "max-workers"
  std::string value_name;   //!< empty for a flag; otherwise shown in help: "N"
  std::string help;         //!< one line
  bool repeatable = false;  //!< may be given several times (values accumulate)
};

//! What a command accepts: options and the names of its positionals.
struct CommandSpec {
  std::string name;
  std::string summary;      //!< one line for `databox --help`
  std::string usage;        //!< "databox run SOURCE [options]"
  std::string description;  //!< paragraph(s) for `databox CMD --help`
  std::vector<OptionSpec> options;
  std::size_t min_positionals = 0;
  std::size_t max_positionals = 0;
};

//! Parsed arguments of one command.
class ParsedArgs {
 public:
  bool Has(const std::string& name) const { return values_.contains(name); }
  std::optional<std::string> Get(const std::string& name) const;
  std::vector<std::string> GetAll(const std::string& name) const;
  const std::vector<std::string>& positionals() const { return positionals_; }

 private:
  friend Result<ParsedArgs> ParseArgs(const CommandSpec& spec,
                                      const std::vector<std::string>& args);
  std::map<std::string, std::vector<std::string>> values_;
  std::vector<std::string> positionals_;
};

//! Parses `args` (after the command name) against `spec`. "--help" is always accepted.
Result<ParsedArgs> ParseArgs(const CommandSpec& spec, const std::vector<std::string>& args);

//! The `--help` text of one command.
std::string FormatCommandHelp(const CommandSpec& spec);

}  // namespace databox::cli
