// The `databox` command line: argument parsing and dispatch to subcommands.
#pragma once

namespace databox::cli {

//! Runs the command line; returns the process exit code (common/exit_code.h, docs/cli.md).
int Main(int argc, char** argv);

}  // namespace databox::cli
