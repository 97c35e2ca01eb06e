#include "load/load_phase.h"

#include "common/enum_names.h"

namespace databox::load {
namespace {

constexpr EnumNames<LoadPhase, 3> kLoadPhaseNames{{{LoadPhase::kExtract, "extract"},
                                                   {LoadPhase::kNormalize, "normalize"},
                                                   {LoadPhase::kCommit, "commit"}}};
static_assert(DistinctNames(kLoadPhaseNames));

}  // namespace

std::string_view LoadPhaseName(LoadPhase phase) {
  return NameOf(kLoadPhaseNames, phase, "extract");
}

Result<LoadPhase> ParseLoadPhase(std::string_view name) {
  return ParseName(kLoadPhaseNames, name, "load phase");
}

}  // namespace databox::load
