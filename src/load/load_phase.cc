#include "load/load_phase.h"

#include "common/enum_names.h"

namespace databox::load {
namespace {

constexpr EnumNames<Phase, 6> kPhaseNames{{{Phase::kExtract, "extract"},
                                           {Phase::kNormalize, "normalize"},
                                           {Phase::kCommit, "commit"},
                                           {Phase::kLoad, "load"},
                                           {Phase::kInspection, "inspection"},
                                           {Phase::kTransform, "transform"}}};
static_assert(DistinctNames(kPhaseNames));
static_assert(kPhaseNames.size() == kPhases.size());

}  // namespace

std::string_view PhaseName(Phase phase) { return NameOf(kPhaseNames, phase, "extract"); }

std::string_view OptionalPhaseName(std::optional<Phase> phase) {
  return phase ? PhaseName(*phase) : "";
}

Result<Phase> ParsePhase(std::string_view name) { return ParseName(kPhaseNames, name, "phase"); }

Result<std::optional<Phase>> ParseOptionalPhase(std::string_view name) {
  if (name.empty()) return std::nullopt;
  DATABOX_ASSIGN_OR_RETURN(Phase phase, ParsePhase(name));
  return phase;
}

}  // namespace databox::load
