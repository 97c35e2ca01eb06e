// `databox transform`: the transform alone over the raw tables as they are, recorded in the run
// history as a run with command "transform" (no sources; the transform's status, exit code, log
// tail and seconds; the run's exit code 0, 1, or 130/143 when SIGINT or SIGTERM stopped it).
// RecordTransform is also how a refresh records its transform.
#pragma once

#include <string>

#include "common/error.h"
#include "common/exit_code.h"
#include "load/workspace.h"
#include "refresh/run_history.h"
#include "refresh/transform_runner.h"

namespace databox::refresh {

//! How the transform ended, in the record: status (ok, failed, interrupted), exit code (none
//! when interrupted: the step's exit was databox's own signal), log
//! tail (the error's message when it could not start; a raw columns problem is added as its
//! last line) and seconds.
void RecordTransform(const Result<TransformResult>& result, RunRecord& record);

struct TransformRunOutcome {
  RunRecord record;  //!< also appended to the run history
  ExitCode exit_code = ExitCode::kOk;
  std::string raw_columns_problem;  //!< TransformResult::raw_columns_problem
  std::string history_problem;      //!< why the record could not be appended (empty: it was)
};

//! Runs the transform (RunTransform) and appends its record. The caller holds the workspace
//! exclusively and has installed the interrupt handlers.
TransformRunOutcome RunTransformAlone(load::Workspace& workspace,
                                      const TransformOptions& options = {});

}  // namespace databox::refresh
