// The `databox` command line, parsed by CLI11: the global options (--config anywhere, --version,
// -h/--help), every command of AllCommands() with the options it declares, and `help COMMAND`.
// Help goes to standard output (exit 0); a usage error goes to standard error as one line that
// names the command, the problem and `databox CMD --help` (exit 2, docs/cli.md).
#pragma once

#include <CLI/CLI.hpp>
#include <map>
#include <string>
#include <vector>

#include "cli/command.h"

namespace databox::cli {

//! The Databox version `databox --version` prints.
const char* DataboxVersion();

class CommandLine {
 public:
  //! Declares every command; `defaults` holds the global options before parsing ($DATABOX_CONFIG).
  explicit CommandLine(GlobalOptions defaults);
  CommandLine(const CommandLine&) = delete;  // the app's options point into this object
  CommandLine& operator=(const CommandLine&) = delete;

  //! Parses `args` (without the program name), then runs the chosen command or prints help or
  //! the version. Returns the process exit code.
  ExitCode Run(std::vector<std::string> args);

  //! The declarations, for tests.
  const CLI::App& app() const { return app_; }

 private:
  //! Prints the help of the (sub)command `path` names, as its --help does.
  ExitCode Help(const std::vector<std::string>& path) const;
  //! Reports a parse error on standard error; returns the exit code.
  ExitCode UsageError(const CLI::ParseError& error) const;

  CLI::App app_;
  GlobalOptions global_;
  std::map<const CLI::App*, Runner> runners_;  //!< by top-level subcommand
  const CLI::App* help_ = nullptr;             //!< the `help` subcommand
  std::vector<std::string> help_path_;         //!< what `help` was asked about
};

}  // namespace databox::cli
