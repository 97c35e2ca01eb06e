// The exit codes of the `databox` command (docs/cli.md, docs/refresh.md). The CLI returns them
// from every command, the refresh reports one in its outcome, and the run history records the
// number (docs/run_history.md).
#pragma once

#include <optional>

#include "common/error.h"

namespace databox {

//! How a `databox` command ended; the values are the process exit statuses.
enum class ExitCode : int {
  kOk = 0,             //!< everything asked for succeeded
  kRunFailed = 1,      //!< a source, the inspection or the transform failed
  kUsage = 2,          //!< bad usage, invalid configuration or failed preflight: nothing started
  kInterrupted = 130,  //!< stopped by SIGINT (Ctrl-C): 128 + 2, as shells report it
  kTerminated = 143,   //!< stopped by SIGTERM: 128 + 15
};

//! The process exit status (and run history number) of `code`: 0, 1, 2, 130 or 143.
int ExitCodeNumber(ExitCode code);

//! The exit code whose number is `number`; a kData error for any other number.
Result<ExitCode> ParseExitCode(int number);

//! The exit code of a run stopped by signal `signal_number` (SIGINT: kInterrupted, SIGTERM:
//! kTerminated); nullopt for any other signal.
std::optional<ExitCode> ExitCodeOfSignal(int signal_number);

}  // namespace databox
