#include "refresh/single_load.h"

#include "common/clock.h"
#include "common/exit_code.h"
#include "common/interrupt.h"
#include "refresh/analytics.h"
#include "refresh/history_recorder.h"

namespace databox::refresh {
namespace {

//! The command's exit code: 0 when the load committed and the views followed, 1 otherwise,
//! the signal's code when SIGINT or SIGTERM stopped the load.
ExitCode ExitCodeOf(const Result<load::SourceLoadResult>& loaded, const std::string& views_error) {
  if (!loaded && IsInterruption(loaded.error())) {
    return ExitCodeOfSignal(InterruptSignal()).value_or(ExitCode::kInterrupted);
  }
  return loaded && views_error.empty() ? ExitCode::kOk : ExitCode::kRunFailed;
}

}  // namespace

SingleLoadOutcome RunSingleLoad(load::Workspace& workspace, const std::string& command,
                                const std::string& source, const LoadCall& load,
                                RunObserver* observer) {
  HistoryRecorder history(workspace.registry().project.state_dir);
  RunEvents events({observer, &history});
  SingleLoadOutcome outcome;
  RunRecord& record = outcome.record;
  record.command = command;
  record.started_at = NowIso();
  record.run_id = record.started_at;
  SourceRun run;
  outcome.loaded = TrackedLoad(source, load, load::Phase::kLoad, events, run);
  // The data is committed either way; stale raw views are reported and fail the command, as in
  // refresh, so that a script notices that `databox query` still shows the previous data.
  if (outcome.loaded) {
    if (auto views = RefreshRawViews(workspace); !views) {
      outcome.views_error =
          "the load was committed, but the raw views could not be rebuilt (queries still see "
          "the previous snapshots): " +
          views.error().message;
      run.notes.push_back(outcome.views_error);
    }
  }
  record.sources.push_back(run);
  record.finished_at = NowIso();
  record.exit_code = ExitCodeOf(outcome.loaded, outcome.views_error);
  events.OnRunFinished(record);
  outcome.history_problem = history.problem();
  return outcome;
}

}  // namespace databox::refresh
