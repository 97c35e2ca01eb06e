// The interface every `databox` subcommand implements.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "cli/args.h"
#include "common/exit_code.h"

namespace databox::cli {

//! Options that precede the subcommand.
struct GlobalOptions {
  std::string config_path = "databox.toml";  //!< --config, or $DATABOX_CONFIG
};

//! A subcommand: its spec (for parsing and help) and what it runs. A command that is not
//! built yet has no `run`: it says so and exits 2.
struct Command {
  CommandSpec spec;
  std::function<ExitCode(const GlobalOptions&, const ParsedArgs&)> run;
  std::string not_built_reason;  //!< when `run` is empty: what is missing
};

//! Every subcommand, in the order `databox --help` lists them.
std::vector<Command> AllCommands();

}  // namespace databox::cli
