#include "common/exit_code.h"

#include <string>

namespace databox {

int ExitCodeNumber(ExitCode code) { return static_cast<int>(code); }

Result<ExitCode> ParseExitCode(int number) {
  for (ExitCode code : {ExitCode::kOk, ExitCode::kRunFailed, ExitCode::kUsage}) {
    if (ExitCodeNumber(code) == number) return code;
  }
  return MakeError(ErrorKind::kData, "unknown exit code " + std::to_string(number) +
                                         ": expected 0 (ok), 1 (run failed) or 2 (usage)");
}

}  // namespace databox
