// The phases of one source load, as LoadProgress reports them: extract (fetch or read the
// source), normalize (records into tables), commit (stage and commit to the catalog).
#pragma once

#include <string_view>

#include "common/error.h"

namespace databox::load {

enum class LoadPhase {
  kExtract,
  kNormalize,
  kCommit,
};

//! "extract", "normalize" or "commit".
std::string_view LoadPhaseName(LoadPhase phase);

//! The phase named `name` (as LoadPhaseName prints it); a kData error for any other text.
Result<LoadPhase> ParseLoadPhase(std::string_view name);

}  // namespace databox::load
