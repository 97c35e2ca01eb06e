// The `databox` command line: argument parsing and dispatch to subcommands.
#pragma once

namespace databox::cli {

//! Exit codes, documented in docs/cli.md.
enum ExitCode : int {
  kExitOk = 0,         //!< everything asked for succeeded
  kExitRunFailed = 1,  //!< a source, inspection or transform failed
  kExitUsage = 2,      //!< bad usage, invalid configuration or failed preflight
};

//! Runs the command line; returns the process exit code.
int Main(int argc, char** argv);

}  // namespace databox::cli
