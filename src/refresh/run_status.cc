#include "refresh/run_status.h"

#include "common/enum_names.h"

namespace databox::refresh {
namespace {

constexpr EnumNames<SourceStatus, 4> kSourceStatusNames{
    {{SourceStatus::kOk, "ok"},
     {SourceStatus::kFailed, "failed"},
     {SourceStatus::kNotStarted, "not_started"},
     {SourceStatus::kInterrupted, "interrupted"}}};
constexpr EnumNames<SourcePhase, 6> kSourcePhaseNames{{{SourcePhase::kNone, ""},
                                                       {SourcePhase::kExtract, "extract"},
                                                       {SourcePhase::kNormalize, "normalize"},
                                                       {SourcePhase::kCommit, "commit"},
                                                       {SourcePhase::kLoad, "load"},
                                                       {SourcePhase::kInspection, "inspection"}}};
constexpr EnumNames<TransformStatus, 5> kTransformStatusNames{
    {{TransformStatus::kOk, "ok"},
     {TransformStatus::kFailed, "failed"},
     {TransformStatus::kNotRun, "not_run"},
     {TransformStatus::kSkipped, "skipped"},
     {TransformStatus::kInterrupted, "interrupted"}}};
constexpr EnumNames<ModelStatus, 4> kModelStatusNames{{{ModelStatus::kOk, "ok"},
                                                       {ModelStatus::kFailed, "failed"},
                                                       {ModelStatus::kSkipped, "skipped"},
                                                       {ModelStatus::kNotRun, "not_run"}}};
constexpr EnumNames<ExitCode, 5> kRunOutcomeNames{{{ExitCode::kOk, "ok"},
                                                   {ExitCode::kRunFailed, "failed"},
                                                   {ExitCode::kUsage, "refused"},
                                                   {ExitCode::kInterrupted, "interrupted"},
                                                   {ExitCode::kTerminated, "terminated"}}};
static_assert(DistinctNames(kSourceStatusNames) && DistinctNames(kSourcePhaseNames) &&
              DistinctNames(kTransformStatusNames) && DistinctNames(kModelStatusNames) &&
              DistinctNames(kRunOutcomeNames));
static_assert(kSourcePhaseNames.size() == kSourcePhases.size());

}  // namespace

std::string_view SourceStatusName(SourceStatus status) {
  return NameOf(kSourceStatusNames, status, "failed");
}

Result<SourceStatus> ParseSourceStatus(std::string_view name) {
  return ParseName(kSourceStatusNames, name, "source status");
}

std::string_view SourcePhaseName(SourcePhase phase) { return NameOf(kSourcePhaseNames, phase, ""); }

Result<SourcePhase> ParseSourcePhase(std::string_view name) {
  return ParseName(kSourcePhaseNames, name, "source phase");
}

SourcePhase SourcePhaseOf(load::LoadPhase phase) {
  switch (phase) {
    case load::LoadPhase::kExtract:
      return SourcePhase::kExtract;
    case load::LoadPhase::kNormalize:
      return SourcePhase::kNormalize;
    case load::LoadPhase::kCommit:
      return SourcePhase::kCommit;
  }
  return SourcePhase::kLoad;
}

std::string_view TransformStatusName(TransformStatus status) {
  return NameOf(kTransformStatusNames, status, "not_run");
}

Result<TransformStatus> ParseTransformStatus(std::string_view name) {
  return ParseName(kTransformStatusNames, name, "transform status");
}

std::string_view RunOutcomeName(ExitCode code) { return NameOf(kRunOutcomeNames, code, "failed"); }

std::string_view ModelStatusName(ModelStatus status) {
  return NameOf(kModelStatusNames, status, "not_run");
}

Result<ModelStatus> ParseModelStatus(std::string_view name) {
  return ParseName(kModelStatusNames, name, "model status");
}

}  // namespace databox::refresh
