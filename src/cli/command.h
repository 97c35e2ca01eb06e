// The interface every `databox` subcommand implements: it declares its positionals and options
// on a CLI11 subcommand (which parses them and writes its help) and returns what runs it.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <string>
#include <vector>

#include "common/exit_code.h"

namespace databox::cli {

//! Options every command accepts, before or after its name.
struct GlobalOptions {
  std::string config_path = "databox.toml";  //!< --config, or $DATABOX_CONFIG
};

//! Runs a command with the values its declaration bound; returns the process exit code.
using Runner = std::function<ExitCode(const GlobalOptions&)>;

//! A subcommand. `declare` adds the command's positionals, options and subcommands (each with a
//! one-line description) to `app`, the subcommand already named and described, binding them to
//! storage the returned Runner reads once the command line is parsed.
struct Command {
  std::string name;
  std::string summary;      //!< one line, listed by `databox --help`
  std::string description;  //!< paragraph(s) closing `databox NAME --help`; may be empty
  std::function<Runner(CLI::App& app)> declare;
};

//! Every subcommand, in the order `databox --help` lists them.
std::vector<Command> AllCommands();

//! A check for options that take a count: a whole number >= 1 (refuses "0", "-1", "2x").
CLI::Validator WholeNumberAtLeastOne();

}  // namespace databox::cli
