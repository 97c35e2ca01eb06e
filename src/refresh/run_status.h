// The states a run record holds (docs/run_history.md): how each source ended, how the transform
// ended, and how the whole run ended (where a failed source failed is a load::Phase). Each has one
// name (the text the run history and the refresh summary print); the record's states have one
// parser.
#pragma once

#include <string_view>

#include "common/error.h"
#include "common/exit_code.h"

namespace databox::refresh {

//! How one source of a run ended.
enum class SourceStatus {
  kOk,           //!< "ok": loaded (and, in a refresh, passed inspection)
  kFailed,       //!< "failed": see SourceRun::phase and SourceRun::error
  kNotStarted,   //!< "not_started": the refresh ended before this source ran
  kInterrupted,  //!< "interrupted": SIGINT or SIGTERM stopped its load (SourceRun::phase: where)
};

//! How the transform of a refresh (or of `databox transform`) ended.
enum class TransformStatus {
  kOk,           //!< "ok"
  kFailed,       //!< "failed"
  kNotRun,       //!< "not_run": a source failed, or the run was a `databox run`
  kSkipped,      //!< "skipped": --skip-transform
  kInterrupted,  //!< "interrupted": SIGINT or SIGTERM stopped it
};

std::string_view SourceStatusName(SourceStatus status);
//! The status named `name`; a kData error for any other text.
Result<SourceStatus> ParseSourceStatus(std::string_view name);

std::string_view TransformStatusName(TransformStatus status);

//! How a model fared in one transform (run history `transform.models`, model_results.h).
enum class ModelStatus {
  kOk,       //!< "ok": built (or unchanged and current) in a transform that succeeded
  kFailed,   //!< "failed": its query or one of its audits failed
  kSkipped,  //!< "skipped": not built because a model it reads failed
  kNotRun,   //!< "not_run": the transform stopped before it (or never named it)
};

std::string_view ModelStatusName(ModelStatus status);
Result<ModelStatus> ParseModelStatus(std::string_view name);

//! The word for how a run ended, from its exit code: "ok", "failed", "refused" (usage or
//! preflight: nothing started), "interrupted" (SIGINT) or "terminated" (SIGTERM).
std::string_view RunOutcomeName(ExitCode code);
//! The status named `name`; a kData error for any other text.
Result<TransformStatus> ParseTransformStatus(std::string_view name);

}  // namespace databox::refresh
