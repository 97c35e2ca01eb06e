#include "refresh/tracked_load.h"

#include <chrono>
#include <optional>

#include "common/clock.h"
#include "common/interrupt.h"

namespace databox::refresh {

void RecordLoadOutcome(const Result<load::SourceLoadResult>& loaded, load::Phase failed_phase,
                       SourceRun& run) {
  if (!loaded) {
    run.status =
        IsInterruption(loaded.error()) ? SourceStatus::kInterrupted : SourceStatus::kFailed;
    run.phase = failed_phase;
    run.error = loaded.error().message;
    return;
  }
  run.status = SourceStatus::kOk;
  run.load_id = loaded->load_id;
  run.rows = loaded->rows_loaded;
  run.notes = loaded->notes;
  for (const auto& t : loaded->tables) {
    if (t.snapshot_id) run.snapshots[t.table] = *t.snapshot_id;
  }
}

Result<load::SourceLoadResult> TrackedLoad(const std::string& source, const LoadCall& load,
                                           load::Phase unreported_phase, RunObserver& events,
                                           SourceRun& run) {
  run.source = source;
  run.started_at = NowIso();
  const auto start = std::chrono::steady_clock::now();
  events.OnSourceStart(SourceStart{.source = source, .at = run.started_at});
  std::optional<load::Phase> phase;
  auto loaded = load([&](const load::LoadProgress& progress) {
    phase = progress.phase;
    events.OnProgress(progress);
  });
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  RecordLoadOutcome(loaded, phase.value_or(unreported_phase), run);
  events.OnSourceFinished(SourceFinished{.run = run, .at = NowIso()});
  return loaded;
}

}  // namespace databox::refresh
