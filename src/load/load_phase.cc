#include "load/load_phase.h"

#include <string>

namespace databox::load {

std::string_view LoadPhaseName(LoadPhase phase) {
  switch (phase) {
    case LoadPhase::kExtract:
      return "extract";
    case LoadPhase::kNormalize:
      return "normalize";
    case LoadPhase::kCommit:
      return "commit";
  }
  return "extract";
}

Result<LoadPhase> ParseLoadPhase(std::string_view name) {
  for (LoadPhase phase : {LoadPhase::kExtract, LoadPhase::kNormalize, LoadPhase::kCommit}) {
    if (name == LoadPhaseName(phase)) return phase;
  }
  return MakeError(ErrorKind::kData, "unknown load phase '" + std::string(name) +
                                         "': expected extract, normalize or commit");
}

}  // namespace databox::load
