// The exit codes of the `databox` command (docs/cli.md, docs/refresh.md). The CLI returns them
// from every command, the refresh reports one in its outcome, and the run history records the
// number (docs/run_history.md).
#pragma once

#include "common/error.h"

namespace databox {

//! How a `databox` command ended; the values are the process exit statuses.
enum class ExitCode : int {
  kOk = 0,         //!< everything asked for succeeded
  kRunFailed = 1,  //!< a source, the inspection or the transform failed
  kUsage = 2,      //!< bad usage, invalid configuration or failed preflight: nothing started
};

//! The process exit status (and run history number) of `code`: 0, 1 or 2.
int ExitCodeNumber(ExitCode code);

//! The exit code whose number is `number`; a kData error for any other number.
Result<ExitCode> ParseExitCode(int number);

}  // namespace databox
