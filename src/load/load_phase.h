// The phases of a run, one enum for every place that names one: a load reports extract (fetch or
// read the source), normalize (records into tables) and commit (stage and commit to the catalog)
// as its progress; a run record's failed source names the phase it failed in (one of those, load
// for `databox ingest`, which does not follow them, or inspection); the refresh reports the start
// and end of its transform. Each phase has one name, the text progress lines, protocol lines and
// the run history print (docs/run_history.md).
#pragma once

#include <array>
#include <optional>
#include <string_view>

#include "common/error.h"

namespace databox::load {

enum class Phase {
  kExtract,     //!< "extract"
  kNormalize,   //!< "normalize"
  kCommit,      //!< "commit"
  kLoad,        //!< "load": `databox ingest`, which does not follow the load's phases
  kInspection,  //!< "inspection": loaded, but the tables read back wrong
  kTransform,   //!< "transform": the refresh's transform, after its loads
};

//! Every Phase, in the order of a refresh.
inline constexpr std::array kPhases = {Phase::kExtract, Phase::kNormalize,  Phase::kCommit,
                                       Phase::kLoad,    Phase::kInspection, Phase::kTransform};

//! "extract", "normalize", "commit", "load", "inspection" or "transform".
std::string_view PhaseName(Phase phase);
//! The phase's name, "" for none (a run record's source that has not failed).
std::string_view OptionalPhaseName(std::optional<Phase> phase);

//! The phase named `name` (as PhaseName prints it); a kData error for any other text.
Result<Phase> ParsePhase(std::string_view name);
//! As ParsePhase, with "" for none (as OptionalPhaseName prints it).
Result<std::optional<Phase>> ParseOptionalPhase(std::string_view name);

}  // namespace databox::load
