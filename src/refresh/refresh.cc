#include "refresh/refresh.h"

#include <algorithm>
#include <atomic>
#include <thread>
#include <utility>

#include "common/edit_distance.h"
#include "common/interrupt.h"
#include "load/source_load.h"
#include "refresh/analytics.h"
#include "refresh/history_recorder.h"
#include "refresh/inspection.h"
#include "refresh/preflight.h"
#include "refresh/tracked_load.h"
#include "refresh/transform_run.h"
#include "refresh/transform_runner.h"
#include "source/kinds.h"

namespace databox::refresh {

Result<std::vector<const registry::Source*>> EligibleSources(
    const registry::Registry& registry, const std::vector<std::string>& named) {
  if (named.empty()) return registry.RoutineSources();
  std::vector<const registry::Source*> out;
  for (const std::string& name : named) {
    const registry::Source* source = registry.FindSource(name);
    if (source == nullptr) {
      return MakeError(ErrorKind::kConfig, "unknown source '" + name + "'" +
                                               DidYouMean(name, registry.SourceNames()) +
                                               " (see `databox sources`)");
    }
    if (source->eligibility != registry::Eligibility::kRoutine) {
      return MakeError(ErrorKind::kConfig,
                       "source '" + name +
                           "' is explicit-only and never part of a refresh; run it "
                           "with `databox run " +
                           name + "`" + source::KindOf(*source).RunHint());
    }
    if (std::find(out.begin(), out.end(), source) == out.end()) out.push_back(source);
  }
  return out;
}

namespace {

//! What the stages of one refresh share: its sources (record.sources[i] is sources[i]), the
//! outcome they fill in, and its events, which the caller's observer and the run history hear.
struct RefreshRun {
  RefreshRun(load::Workspace& ws, const RefreshOptions& opts,
             std::vector<const registry::Source*> eligible)
      : workspace(ws),
        options(opts),
        sources(std::move(eligible)),
        history(ws.registry().project.state_dir),
        events({opts.observer, &history}) {
    record().command = "refresh";
    record().started_at = NowIso();
    record().run_id = record().started_at;
  }

  RunRecord& record() { return outcome.record; }

  load::Workspace& workspace;
  const RefreshOptions& options;
  const std::vector<const registry::Source*> sources;
  RefreshOutcome outcome;
  HistoryRecorder history;
  RunEvents events;
};

//! Preflight: false (exit kUsage, the problems in the outcome) when anything a refresh needs
//! is missing; nothing has been started then.
bool Preflight(RefreshRun& run) {
  const PreflightOptions options{.check_transform = !run.options.skip_transform};
  run.outcome.preflight_problems = run.options.registry_preflight_done
                                       ? RunWorkspacePreflight(run.workspace, options)
                                       : RunPreflight(run.workspace, options);
  if (run.outcome.preflight_problems.empty()) return true;
  run.outcome.exit_code = ExitCode::kUsage;
  return false;
}

//! Loads sources[i] on the calling thread, between its SourceStart and SourceFinished events,
//! and records how it ended (a failure in the phase the load last reported, extract before any).
void LoadOne(RefreshRun& run, std::size_t i) {
  const registry::Source& source = *run.sources[i];
  auto load = [&](const ProgressCallback& progress) {
    load::SourceLoadOptions load_options;
    load_options.on_progress = progress;
    return load::LoadSource(run.workspace, source, load_options);
  };
  TrackedLoad(source.name, load, load::Phase::kExtract, run.events, run.record().sources[i]);
}

//! Schedule: every source in a pool of --max-workers threads (default project.max_workers);
//! each runs to its end whatever its siblings do.
void ScheduleLoads(RefreshRun& run) {
  RunRecord& record = run.record();
  record.sources.resize(run.sources.size());
  for (std::size_t i = 0; i < run.sources.size(); ++i) {
    record.sources[i].source = run.sources[i]->name;
    record.sources[i].status = SourceStatus::kNotStarted;
  }
  const int configured = run.options.max_workers > 0 ? run.options.max_workers
                                                     : run.workspace.registry().project.max_workers;
  const int workers = std::max(1, std::min<int>(configured, static_cast<int>(run.sources.size())));
  std::atomic<std::size_t> next{0};
  // After SIGINT or SIGTERM no source starts: those not begun stay not_started.
  auto work = [&] {
    for (std::size_t i = next++; i < run.sources.size() && InterruptSignal() == 0; i = next++) {
      LoadOne(run, i);
    }
  };
  std::vector<std::thread> threads;
  for (int i = 0; i < workers; ++i) threads.emplace_back(work);
  for (auto& t : threads) t.join();
}

//! Inspect: reads back what every loaded source committed in this run. True when every source
//! loaded and passed; a source that fails inspection is failed in phase inspection.
bool Inspect(RefreshRun& run) {
  RunRecord& record = run.record();
  bool all_ok = true;
  for (std::size_t i = 0; i < run.sources.size(); ++i) {
    SourceRun& source_run = record.sources[i];
    if (source_run.status != SourceStatus::kOk) {
      all_ok = false;
      continue;
    }
    for (const std::string& problem :
         InspectSource(run.workspace, *run.sources[i], source_run.load_id)) {
      record.inspection_problems.push_back(problem);
      source_run.status = SourceStatus::kFailed;
      source_run.phase = load::Phase::kInspection;
      source_run.error = problem;
      all_ok = false;
    }
  }
  record.inspection_ok = all_ok;
  return all_ok;
}

//! The raw views follow the catalog after every refresh, whatever failed. False (and a problem
//! in the record) when they could not be rebuilt.
bool RebuildRawViews(RefreshRun& run) {
  if (auto views = RefreshRawViews(run.workspace); !views) {
    run.record().inspection_problems.push_back("raw views: " + views.error().message);
    return false;
  }
  return true;
}

//! Transform: skipped with --skip-transform, not run unless everything before it passed
//! (`ready`), otherwise run between its PhaseStart and PhaseEnd events.
void Transform(RefreshRun& run, bool ready) {
  RunRecord& record = run.record();
  if (run.options.skip_transform) {
    record.transform_status = TransformStatus::kSkipped;
    return;
  }
  if (!ready) return;
  run.events.OnPhaseStart(PhaseStart{.phase = load::Phase::kTransform, .at = NowIso()});
  RecordTransform(RunTransform(run.workspace), record);
  run.events.OnPhaseEnd(PhaseEnd{.phase = load::Phase::kTransform,
                                 .at = NowIso(),
                                 .ok = record.transform_status == TransformStatus::kOk});
}

//! Record: the run's end and exit code, the last event, which appends it to the run history.
//! A failed append is reported in the outcome (the exit code stays).
void Record(RefreshRun& run, ExitCode exit_code) {
  RunRecord& record = run.record();
  record.finished_at = NowIso();
  run.outcome.exit_code = exit_code;
  record.exit_code = exit_code;
  run.events.OnRunFinished(record);
  run.outcome.history_problem = run.history.problem();
}

//! After SIGINT or SIGTERM (common/interrupt.h): records the run with the signal's exit code
//! and returns true; nothing after this point runs. False while no signal arrived.
bool RecordedInterrupt(RefreshRun& run) {
  const int signal_number = InterruptSignal();
  if (signal_number == 0) return false;
  Record(run, ExitCodeOfSignal(signal_number).value_or(ExitCode::kInterrupted));
  return true;
}

}  // namespace

Result<RefreshOutcome> RunRefresh(load::Workspace& workspace, const RefreshOptions& options) {
  DATABOX_ASSIGN_OR_RETURN(auto sources, EligibleSources(workspace.registry(), options.sources));
  RefreshRun run(workspace, options, std::move(sources));
  if (!Preflight(run)) return std::move(run.outcome);
  ScheduleLoads(run);
  if (RecordedInterrupt(run)) return std::move(run.outcome);
  const bool inspected = Inspect(run);
  const bool views_rebuilt = RebuildRawViews(run);
  if (RecordedInterrupt(run)) return std::move(run.outcome);
  const bool ready = inspected && views_rebuilt;
  Transform(run, ready);
  if (RecordedInterrupt(run)) return std::move(run.outcome);
  const bool all_ok = ready && run.record().transform_status != TransformStatus::kFailed;
  Record(run, all_ok ? ExitCode::kOk : ExitCode::kRunFailed);
  return std::move(run.outcome);
}

}  // namespace databox::refresh
