#include "refresh/transform_run.h"

#include "common/clock.h"
#include "common/interrupt.h"
#include "refresh/history_recorder.h"

namespace databox::refresh {

void RecordTransform(const Result<TransformResult>& result, RunRecord& record) {
  if (!result) {
    record.transform_status =
        IsInterruption(result.error()) ? TransformStatus::kInterrupted : TransformStatus::kFailed;
    record.transform_log_tail = result.error().message;
    return;
  }
  record.transform_status = result->ok            ? TransformStatus::kOk
                            : result->interrupted ? TransformStatus::kInterrupted
                                                  : TransformStatus::kFailed;
  // A step stopped by databox's own interrupt exits by our SIGTERM (or SIGKILL): that exit code
  // is not SQLMesh's, so an interrupted transform has none.
  if (!result->steps.empty() && !result->interrupted) {
    record.transform_exit_code = result->exit_code();
  }
  record.transform_log_tail = result->log_tail;
  if (!result->raw_columns_problem.empty()) {
    record.transform_log_tail += "== databox: " + result->raw_columns_problem + "\n";
  }
  record.transform_seconds = std::chrono::duration<double>(result->duration).count();
  record.transform_models = result->models;
}

TransformRunOutcome RunTransformAlone(load::Workspace& workspace, const TransformOptions& options) {
  TransformRunOutcome outcome;
  RunRecord& record = outcome.record;
  record.command = "transform";
  record.started_at = NowIso();
  record.run_id = record.started_at;
  auto result = RunTransform(workspace, options);
  RecordTransform(result, record);
  if (result) outcome.raw_columns_problem = result->raw_columns_problem;
  record.finished_at = NowIso();
  if (record.transform_status == TransformStatus::kInterrupted) {
    record.exit_code = ExitCodeOfSignal(InterruptSignal()).value_or(ExitCode::kInterrupted);
  } else {
    record.exit_code =
        record.transform_status == TransformStatus::kOk ? ExitCode::kOk : ExitCode::kRunFailed;
  }
  outcome.exit_code = record.exit_code;
  // The run history hears the finished run as it does a refresh's (history_recorder.h).
  HistoryRecorder history(workspace.registry().project.state_dir);
  history.OnRunFinished(record);
  outcome.history_problem = history.problem();
  return outcome;
}

}  // namespace databox::refresh
