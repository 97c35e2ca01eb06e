// `databox run` and `databox refresh`: the commands that load sources.
#include <unistd.h>

#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/output.h"
#include "cli/session.h"
#include "cli/table_format.h"
#include "common/exit_code.h"
#include "load/source_load.h"
#include "refresh/analytics.h"
#include "refresh/live_progress.h"
#include "refresh/refresh.h"
#include "refresh/run_history.h"
#include "source/targets.h"

namespace databox::cli {
namespace {

//! What `databox run` parsed.
struct RunArgs {
  std::string source;
  bool resume = false;
  std::optional<std::string> file;
  std::optional<std::string> targets;
};

//! What `databox refresh` parsed.
struct RefreshArgs {
  std::vector<std::string> sources;
  std::optional<int> max_workers;
  bool skip_transform = false;
  bool json = false;
};

ExitCode RunTargeted(const registry::Source& source, const RunArgs& args) {
  const auto& targets_file = args.targets;
  if (!targets_file) {
    Err("databox run " + source.name +
        ": refusing to run without a caller-supplied target list; "
        "pass --targets FILE (one `<code> <text>` per line, see docs/avonet.md)\n");
    return ExitCode::kUsage;
  }
  auto targets =
      source::ParseTargets(*targets_file, source.targets.value_or(registry::TargetSettings{}));
  if (!targets) {
    Err("databox run " + source.name + ": " + targets.error().message + "\n");
    return ExitCode::kUsage;
  }
  Err("databox run " + source.name + ": " + std::to_string(targets->size()) +
      " targets are valid, but the image search itself is not built yet; nothing "
      "was loaded\n");
  return ExitCode::kUsage;
}

ExitCode RunOne(const GlobalOptions& global, const RunArgs& args) {
  const std::string& name = args.source;
  auto session = OpenSession(global, "run");
  if (!session) return ExitCode::kUsage;
  const registry::Source* source = session->registry.FindSource(name);
  if (source == nullptr) {
    Err("databox run: unknown source '" + name + "' (see `databox sources`)\n");
    return ExitCode::kUsage;
  }
  if (source->kind == registry::SourceKind::kTargeted) return RunTargeted(*source, args);
  if (args.targets) {
    Err("databox run: --targets applies to targeted sources only\n");
    return ExitCode::kUsage;
  }
  if (args.file && source->kind != registry::SourceKind::kFile) {
    Err("databox run: --file applies to file sources (e.g. avonet) only\n");
    return ExitCode::kUsage;
  }
  load::SourceLoadOptions options;
  options.resume = args.resume;
  if (args.file) options.file = *args.file;

  refresh::RunRecord record;
  record.command = "run";
  record.started_at = NowIso();
  record.run_id = record.started_at;
  refresh::SourceRun run;
  run.source = name;
  run.started_at = record.started_at;
  auto loaded = load::LoadSource(*session->workspace, *source, options);
  refresh::RecordLoadOutcome(loaded, refresh::SourcePhase::kLoad, run);
  // The data is committed either way; stale raw views are reported and fail the run, as in
  // refresh, so that a script notices that `databox query` still shows the previous data.
  std::string views_error;
  if (loaded) {
    if (auto views = refresh::RefreshRawViews(*session->workspace); !views) {
      views_error =
          "the load was committed, but the raw views could not be rebuilt (queries "
          "still see the previous snapshots): " +
          views.error().message;
      run.notes.push_back(views_error);
    }
  }
  record.sources.push_back(run);
  record.finished_at = NowIso();
  record.exit_code = loaded && views_error.empty() ? ExitCode::kOk : ExitCode::kRunFailed;
  if (auto appended = refresh::RunHistory(session->registry.project.state_dir).Append(record);
      !appended) {
    Err("databox run: " + appended.error().message + "\n");
  }
  if (!loaded) {
    Err("databox run " + name + ": " + loaded.error().ToString() + "\n");
    return ExitCode::kRunFailed;
  }
  Out("source " + name + " loaded, load id " + loaded->load_id + "\n");
  for (const auto& t : loaded->tables) {
    Out("  " + t.table + "  " + t.disposition + "  rows=" + std::to_string(t.rows) +
        "  snapshot=" + (t.snapshot_id ? std::to_string(*t.snapshot_id) : "-") + "\n");
  }
  for (const auto& note : loaded->notes) Out("  note: " + note + "\n");
  if (!views_error.empty()) {
    Err("databox run " + name + ": " + views_error + "\n");
    return ExitCode::kRunFailed;
  }
  return ExitCode::kOk;
}

void PrintPlatformHealth(load::Workspace& workspace) {
  auto analytics = refresh::OpenAnalytics(workspace);
  if (!analytics) {
    Err("databox refresh: cannot open the analytics database: " + analytics.error().message + "\n");
    return;
  }
  auto rows = analytics->connection.Query("SELECT * FROM analytics.platform_health ORDER BY 1");
  if (!rows) {
    Err("databox refresh: analytics.platform_health: " + rows.error().message + "\n");
    return;
  }
  Out("\nanalytics.platform_health\n" + FormatTable(*rows));
}

ExitCode Refresh(const GlobalOptions& global, const RefreshArgs& args) {
  auto session = OpenSession(global, "refresh");
  if (!session) return ExitCode::kUsage;
  refresh::RefreshOptions options;
  options.sources = args.sources;
  options.skip_transform = args.skip_transform;
  if (args.max_workers) options.max_workers = *args.max_workers;
  const bool json = args.json;
  std::unique_ptr<refresh::LiveProgress> live;
  if (!json && ::isatty(STDOUT_FILENO)) {
    live = std::make_unique<refresh::LiveProgress>(stdout);
    options.emit = [&](std::string_view line) { live->OnProtocolLine(line); };
    options.progress = [&](const std::string& s, load::LoadPhase phase, int64_t requests,
                           int64_t rows) { live->OnProgress(s, phase, requests, rows); };
  } else if (!json) {
    options.emit = [](std::string_view line) { Out(std::string(line) + "\n"); };
  }
  auto outcome = refresh::RunRefresh(*session->workspace, options);
  if (!outcome) {
    Err("databox refresh: " + outcome.error().message + "\n");
    return ExitCode::kUsage;
  }
  if (live) live->Finish();
  if (!outcome->preflight_problems.empty()) {
    Err("databox refresh: preflight failed; nothing was started:\n");
    for (const auto& p : outcome->preflight_problems) Err("  - " + p + "\n");
    return ExitCode::kUsage;
  }
  const refresh::RunRecord& record = outcome->record;
  if (json) {
    Out(record.ToJson().dump(2) + "\n");
    return outcome->exit_code;
  }
  Out("\nrun " + record.run_id + "\n");
  for (const auto& s : record.sources) {
    const std::string status(refresh::SourceStatusName(s.status));
    const std::string phase(refresh::SourcePhaseName(s.phase));
    Out("  " + s.source + ": " + status + "  rows=" + std::to_string(s.rows) +
        (s.error.empty() ? "" : "  [" + phase + "] " + s.error) + "\n");
    for (const auto& note : s.notes) Out("    note: " + note + "\n");
  }
  for (const auto& p : record.inspection_problems) Out("  inspection: " + p + "\n");
  Out("  transform: " + std::string(refresh::TransformStatusName(record.transform_status)) +
      (record.transform_exit_code ? " (exit " + std::to_string(*record.transform_exit_code) + ")"
                                  : "") +
      "\n");
  if (record.transform_status == refresh::TransformStatus::kFailed &&
      !record.transform_log_tail.empty()) {
    Err("transform log (tail):\n" + record.transform_log_tail + "\n");
  }
  if (record.transform_status == refresh::TransformStatus::kOk) {
    PrintPlatformHealth(*session->workspace);
  }
  return outcome->exit_code;
}

}  // namespace

Command RunCommand() {
  return Command{
      "run", "Load one source into its raw_<source> namespace",
      "Extracts, normalizes and commits one source; prints rows written and the new\n"
      "snapshot id per table. Explicit-only sources (avonet, usfws) run only this way.\n"
      "Fails at once (exit 1) while another databox process is loading the same source.",
      [](CLI::App& app) -> Runner {
        auto args = std::make_shared<RunArgs>();
        app.add_option("SOURCE", args->source, "the source to load (`databox sources` lists them)")
            ->required();
        app.add_flag("--resume", args->resume,
                     "finish the last load package of this source without fetching again");
        app.add_option("--file", args->file,
                       "avonet: validate and publish this workbook instead of downloading")
            ->option_text("PATH");
        app.add_option("--targets", args->targets, "usfws: the caller-supplied target list")
            ->option_text("FILE");
        return [args](const GlobalOptions& global) { return RunOne(global, *args); };
      }};
}

Command RefreshCommand() {
  return Command{
      "refresh", "Load every routine source concurrently, inspect, run the transform",
      "Preflight (catalog, warehouse, analytics database, transform command; exit 2 and\n"
      "nothing started on any problem), then every eligible source in a bounded worker\n"
      "pool (each runs to its end even if a sibling fails), then inspection of this\n"
      "run's load status, then SQLMesh only if every source passed. Exit 0 when all\n"
      "succeeded, 1 when a source, the inspection or the transform failed. Plain output\n"
      "carries the protocol lines of docs/refresh.md; a terminal gets a live display.",
      [](CLI::App& app) -> Runner {
        auto args = std::make_shared<RefreshArgs>();
        app.add_option("--source", args->sources,
                       "refresh only this routine source (repeatable: --source a --source b)")
            ->option_text("S")
            ->allow_extra_args(false);
        app.add_option("--max-workers", args->max_workers,
                       "how many sources load at once (default: project.max_workers)")
            ->option_text("N")
            ->check(WholeNumberAtLeastOne());
        app.add_flag("--skip-transform", args->skip_transform, "do not run the transform command");
        app.add_flag("--json", args->json, "print a machine-readable summary instead");
        return [args](const GlobalOptions& global) { return Refresh(global, *args); };
      }};
}

}  // namespace databox::cli
