#include "refresh/refresh.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <thread>

#include "load/source_load.h"
#include "refresh/analytics.h"
#include "refresh/inspection.h"
#include "refresh/preflight.h"
#include "refresh/transform_runner.h"

namespace databox::refresh {

Result<std::vector<const registry::Source*>> EligibleSources(
    const registry::Registry& registry, const std::vector<std::string>& named) {
  if (named.empty()) return registry.RoutineSources();
  std::vector<const registry::Source*> out;
  for (const std::string& name : named) {
    const registry::Source* source = registry.FindSource(name);
    if (source == nullptr) {
      return MakeError(ErrorKind::kConfig, "unknown source '" + name + "' (see `databox sources`)");
    }
    if (source->eligibility != registry::Eligibility::kRoutine) {
      return MakeError(ErrorKind::kConfig,
                       "source '" + name +
                           "' is explicit-only and never part of a refresh; run it "
                           "with `databox run " +
                           name + "`" +
                           (source->kind == registry::SourceKind::kTargeted ? " --targets FILE"
                            : source->kind == registry::SourceKind::kFile   ? " [--file PATH]"
                                                                            : ""));
    }
    if (std::find(out.begin(), out.end(), source) == out.end()) out.push_back(source);
  }
  return out;
}

void RecordLoadOutcome(const Result<load::SourceLoadResult>& loaded,
                       const std::string& failed_phase, SourceRun& run) {
  if (!loaded) {
    run.status = "failed";
    run.phase = failed_phase;
    run.error = loaded.error().message;
    return;
  }
  run.status = "ok";
  run.load_id = loaded->load_id;
  run.rows = loaded->rows_loaded;
  run.notes = loaded->notes;
  for (const auto& t : loaded->tables) {
    if (t.snapshot_id) run.snapshots[t.table] = *t.snapshot_id;
  }
}

namespace {

double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::string Fixed3(double seconds) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", seconds);
  return buf;
}

}  // namespace

Result<RefreshOutcome> RunRefresh(load::Workspace& workspace, const RefreshOptions& options) {
  const registry::Registry& registry = workspace.registry();
  DATABOX_ASSIGN_OR_RETURN(auto sources, EligibleSources(registry, options.sources));
  std::mutex lock;
  auto emit = [&](const std::string& line) {
    if (!options.emit) return;
    std::lock_guard<std::mutex> guard(lock);
    options.emit(line);
  };

  RefreshOutcome outcome;
  RunRecord& record = outcome.record;
  record.command = "refresh";
  record.started_at = NowIso();
  record.run_id = record.started_at;

  outcome.preflight_problems =
      RunPreflight(workspace, PreflightOptions{.check_transform = !options.skip_transform});
  if (!outcome.preflight_problems.empty()) {
    outcome.exit_code = 2;
    return outcome;
  }

  record.sources.resize(sources.size());
  for (std::size_t i = 0; i < sources.size(); ++i) {
    record.sources[i].source = sources[i]->name;
    record.sources[i].status = "not_started";
  }
  const int workers = std::max(
      1, std::min<int>(options.max_workers > 0 ? options.max_workers : registry.project.max_workers,
                       static_cast<int>(sources.size())));
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t i = next++; i < sources.size(); i = next++) {
      const registry::Source& source = *sources[i];
      SourceRun& run = record.sources[i];
      run.started_at = NowIso();
      const auto start = std::chrono::steady_clock::now();
      emit("SOURCE_START source=" + source.name + " at=" + run.started_at);
      load::SourceLoadOptions load_options;
      std::string phase = "extract";
      load_options.on_progress = [&](const load::LoadProgress& p) {
        phase = p.phase;
        if (options.progress) {
          std::lock_guard<std::mutex> guard(lock);
          options.progress(p.source, p.phase, p.requests, p.rows);
        }
      };
      auto loaded = load::LoadSource(workspace, source, load_options);
      run.seconds = SecondsSince(start);
      RecordLoadOutcome(loaded, phase, run);
      emit("SOURCE_END source=" + source.name + " at=" + NowIso() +
           " status=" + (loaded ? "0" : "1") + " seconds=" + Fixed3(run.seconds));
    }
  };
  std::vector<std::thread> threads;
  for (int i = 0; i < workers; ++i) threads.emplace_back(work);
  for (auto& t : threads) t.join();

  // Inspection of what this run committed.
  bool all_ok = true;
  for (std::size_t i = 0; i < sources.size(); ++i) {
    SourceRun& run = record.sources[i];
    if (run.status != "ok") {
      all_ok = false;
      continue;
    }
    for (const std::string& problem : InspectSource(workspace, *sources[i], run.load_id)) {
      record.inspection_problems.push_back(problem);
      run.status = "failed";
      run.phase = "inspection";
      run.error = problem;
      all_ok = false;
    }
  }
  record.inspection_ok = all_ok;

  // The raw views follow the catalog after every refresh, whatever failed.
  if (auto views = RefreshRawViews(workspace); !views) {
    record.inspection_problems.push_back("raw views: " + views.error().message);
    all_ok = false;
  }

  if (options.skip_transform) {
    record.transform_status = "skipped";
  } else if (all_ok) {
    emit("PHASE_START phase=transform at=" + NowIso());
    // RunTransform regenerates analytics.platform_health from the registry first.
    Result<TransformResult> result = RunTransform(workspace);
    if (!result) {
      record.transform_status = "failed";
      record.transform_log_tail = result.error().message;
    } else {
      record.transform_status = result->ok ? "ok" : "failed";
      record.transform_exit_code = result->exit_code();
      record.transform_log_tail = result->log_tail;
    }
    emit("PHASE_END phase=transform at=" + NowIso() +
         " status=" + (record.transform_status == "ok" ? "0" : "1"));
    if (record.transform_status != "ok") all_ok = false;
  }
  record.finished_at = NowIso();
  outcome.exit_code = all_ok ? 0 : 1;
  record.exit_code = outcome.exit_code;
  if (auto appended = RunHistory(registry.project.state_dir).Append(record); !appended) {
    record.inspection_problems.push_back(appended.error().message);
  }
  return outcome;
}

}  // namespace databox::refresh
