#include "refresh/run_status.h"

#include <initializer_list>
#include <span>
#include <string>

namespace databox::refresh {
namespace {

//! The value of `values` whose name is `text`, or a kData error listing the names.
template <typename Enum, typename NameOf>
Result<Enum> ParseByName(std::string_view text, std::span<const Enum> values, NameOf name_of,
                         std::string_view what) {
  std::string expected;
  for (Enum value : values) {
    if (text == name_of(value)) return value;
    expected += (expected.empty() ? "'" : ", '") + std::string(name_of(value)) + "'";
  }
  return MakeError(ErrorKind::kData, "unknown " + std::string(what) + " '" + std::string(text) +
                                         "': expected one of " + expected);
}

template <typename Enum, typename NameOf>
Result<Enum> ParseByName(std::string_view text, std::initializer_list<Enum> values, NameOf name_of,
                         std::string_view what) {
  return ParseByName(text, std::span<const Enum>(values.begin(), values.size()), name_of, what);
}

}  // namespace

std::string_view SourceStatusName(SourceStatus status) {
  switch (status) {
    case SourceStatus::kOk:
      return "ok";
    case SourceStatus::kFailed:
      return "failed";
    case SourceStatus::kNotStarted:
      return "not_started";
    case SourceStatus::kInterrupted:
      return "interrupted";
  }
  return "failed";
}

Result<SourceStatus> ParseSourceStatus(std::string_view name) {
  return ParseByName(name,
                     {SourceStatus::kOk, SourceStatus::kFailed, SourceStatus::kNotStarted,
                      SourceStatus::kInterrupted},
                     SourceStatusName, "source status");
}

std::string_view SourcePhaseName(SourcePhase phase) {
  switch (phase) {
    case SourcePhase::kNone:
      return "";
    case SourcePhase::kExtract:
      return "extract";
    case SourcePhase::kNormalize:
      return "normalize";
    case SourcePhase::kCommit:
      return "commit";
    case SourcePhase::kLoad:
      return "load";
    case SourcePhase::kInspection:
      return "inspection";
  }
  return "";
}

Result<SourcePhase> ParseSourcePhase(std::string_view name) {
  return ParseByName(name, std::span<const SourcePhase>(kSourcePhases), SourcePhaseName,
                     "source phase");
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
  switch (status) {
    case TransformStatus::kOk:
      return "ok";
    case TransformStatus::kFailed:
      return "failed";
    case TransformStatus::kNotRun:
      return "not_run";
    case TransformStatus::kSkipped:
      return "skipped";
    case TransformStatus::kInterrupted:
      return "interrupted";
  }
  return "not_run";
}

Result<TransformStatus> ParseTransformStatus(std::string_view name) {
  return ParseByName(name,
                     {TransformStatus::kOk, TransformStatus::kFailed, TransformStatus::kNotRun,
                      TransformStatus::kSkipped, TransformStatus::kInterrupted},
                     TransformStatusName, "transform status");
}

std::string_view RunOutcomeName(ExitCode code) {
  switch (code) {
    case ExitCode::kOk:
      return "ok";
    case ExitCode::kRunFailed:
      return "failed";
    case ExitCode::kUsage:
      return "refused";
    case ExitCode::kInterrupted:
      return "interrupted";
    case ExitCode::kTerminated:
      return "terminated";
  }
  return "failed";
}

std::string_view ModelStatusName(ModelStatus status) {
  switch (status) {
    case ModelStatus::kOk:
      return "ok";
    case ModelStatus::kFailed:
      return "failed";
    case ModelStatus::kSkipped:
      return "skipped";
    case ModelStatus::kNotRun:
      return "not_run";
  }
  return "not_run";
}

Result<ModelStatus> ParseModelStatus(std::string_view name) {
  return ParseByName(
      name, {ModelStatus::kOk, ModelStatus::kFailed, ModelStatus::kSkipped, ModelStatus::kNotRun},
      ModelStatusName, "model status");
}

}  // namespace databox::refresh
