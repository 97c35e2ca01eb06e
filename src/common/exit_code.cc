#include "common/exit_code.h"

#include <csignal>
#include <string>

namespace databox {

int ExitCodeNumber(ExitCode code) { return static_cast<int>(code); }

Result<ExitCode> ParseExitCode(int number) {
  for (ExitCode code : {ExitCode::kOk, ExitCode::kRunFailed, ExitCode::kUsage,
                        ExitCode::kInterrupted, ExitCode::kTerminated}) {
    if (ExitCodeNumber(code) == number) return code;
  }
  return MakeError(ErrorKind::kData,
                   "unknown exit code " + std::to_string(number) +
                       ": expected 0 (ok), 1 (run failed), 2 (usage), 130 (interrupted) or 143 "
                       "(terminated)");
}

std::optional<ExitCode> ExitCodeOfSignal(int signal_number) {
  if (signal_number == SIGINT) return ExitCode::kInterrupted;
  if (signal_number == SIGTERM) return ExitCode::kTerminated;
  return std::nullopt;
}

}  // namespace databox
