#include "refresh/run_status.h"

#include "common/enum_names.h"

namespace databox::refresh {
namespace {

constexpr EnumNames<SourceStatus, 4> kSourceStatusNames{
    {{SourceStatus::kOk, "ok"},
     {SourceStatus::kFailed, "failed"},
     {SourceStatus::kNotStarted, "not_started"},
     {SourceStatus::kInterrupted, "interrupted"}}};
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
static_assert(DistinctNames(kSourceStatusNames) && DistinctNames(kTransformStatusNames) &&
              DistinctNames(kModelStatusNames) && DistinctNames(kRunOutcomeNames));

}  // namespace

std::string_view SourceStatusName(SourceStatus status) {
  return NameOf(kSourceStatusNames, status, "failed");
}

Result<SourceStatus> ParseSourceStatus(std::string_view name) {
  return ParseName(kSourceStatusNames, name, "source status");
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
