// Shell completion generated from the command tree: the script `databox completion bash` prints
// is made from the CLI11 declarations (command_line.h) at run time, so its commands, options and
// option values cannot drift from what the command line accepts. It completes command and
// subcommand names (and the command names `help` takes), the options of the command typed so
// far (--config included, as every command declares it), and file or folder names where an
// option or positional takes a FILE, PATH or DIR. Source names are not completed. Pure: tested on
// a small tree and the real one.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <string_view>

namespace databox::cli {

//! The shells a completion script can be written for, as `databox completion` names them.
inline constexpr std::string_view kCompletionShells = "bash";

//! A bash script that defines the function _<program> and registers it with `complete -F` for
//! `program` (root.get_name()), from every visible (sub)command and option of `root`.
std::string BashCompletionScript(const CLI::App& root);

}  // namespace databox::cli
