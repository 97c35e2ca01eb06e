#include "cli/one_source_run.h"

#include "cli/output.h"
#include "common/clock.h"
#include "common/exit_code.h"
#include "common/interrupt.h"
#include "common/write_disposition.h"
#include "refresh/analytics.h"
#include "refresh/refresh.h"
#include "refresh/run_status.h"

namespace databox::cli {

OneSourceRun::OneSourceRun(const std::string& command, const std::string& source)
    : start_(std::chrono::steady_clock::now()) {
  record_.command = command;
  record_.started_at = NowIso();
  record_.run_id = record_.started_at;
  run_.source = source;
  run_.started_at = record_.started_at;
}

void OneSourceRun::LoadEnded(const Result<load::SourceLoadResult>& loaded) {
  run_.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  refresh::RecordLoadOutcome(
      loaded, phase_ ? refresh::SourcePhaseOf(*phase_) : refresh::SourcePhase::kLoad, run_);
}

std::string OneSourceRun::Finish(Session& session, const Result<load::SourceLoadResult>& loaded) {
  // The data is committed either way; stale raw views are reported and fail the command, as in
  // refresh, so that a script notices that `databox query` still shows the previous data.
  std::string views_error;
  if (loaded) {
    if (auto views = refresh::RefreshRawViews(*session.workspace); !views) {
      views_error =
          "the load was committed, but the raw views could not be rebuilt (queries still see "
          "the previous snapshots): " +
          views.error().message;
      run_.notes.push_back(views_error);
    }
  }
  record_.sources.push_back(run_);
  record_.finished_at = NowIso();
  record_.exit_code = loaded && views_error.empty() ? ExitCode::kOk : ExitCode::kRunFailed;
  if (!loaded && IsInterruption(loaded.error())) {
    record_.exit_code = ExitCodeOfSignal(InterruptSignal()).value_or(ExitCode::kInterrupted);
  }
  if (auto appended = refresh::RunHistory(session.registry.project.state_dir).Append(record_);
      !appended) {
    Err("databox " + record_.command + ": " + appended.error().message + "\n");
  }
  return views_error;
}

void PrintLoadedTables(const load::SourceLoadResult& loaded) {
  for (const auto& t : loaded.tables) {
    Out("  " + t.table + "  " + std::string(WriteDispositionName(t.disposition)) +
        "  rows=" + std::to_string(t.rows) +
        "  snapshot=" + (t.snapshot_id ? std::to_string(*t.snapshot_id) : "-") + "\n");
  }
  for (const auto& note : loaded.notes) Out("  note: " + note + "\n");
}

}  // namespace databox::cli
