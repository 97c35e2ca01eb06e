// `databox run` and `databox refresh`: the commands that load sources.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/cmd_catalog_backup.h"
#include "cli/commands.h"
#include "cli/loaded_tables.h"
#include "cli/output.h"
#include "cli/session.h"
#include "cli/table_format.h"
#include "cli/terminal_width.h"
#include "common/edit_distance.h"
#include "common/exit_code.h"
#include "common/interrupt.h"
#include "common/terminal_style.h"
#include "load/source_load.h"
#include "platform/catalog_backup.h"
#include "platform/source_clients.h"
#include "platform/source_kinds.h"
#include "refresh/analytics.h"
#include "refresh/live_progress.h"
#include "refresh/preflight.h"
#include "refresh/protocol_printer.h"
#include "refresh/refresh.h"
#include "refresh/run_history.h"
#include "refresh/single_load.h"
#include "source/kinds.h"

namespace databox::cli {
namespace {

//! What `databox run` parsed.
struct RunArgs {
  std::string source;
  bool resume = false;
  //! The options the source kinds own (source::Kind::RunOptions), by name: text ones, and whole
  //! numbers (range-checked by CLI11). Every one a kind declares has an entry.
  std::map<std::string, std::optional<std::string>> kind_text;
  std::map<std::string, std::optional<int>> kind_numbers;
  std::optional<int64_t> limit;  //!< items per resource
  bool record = false;           //!< live, writing a cassette into the replay folder

  //! The kind options given among `owned`.
  source::KindOptions Given(const std::vector<source::RunOption>& owned) const {
    source::KindOptions given;
    for (const source::RunOption& option : owned) {
      auto text = kind_text.find(option.name);
      if (text != kind_text.end() && text->second) given[option.name] = *text->second;
      auto number = kind_numbers.find(option.name);
      if (number != kind_numbers.end() && number->second) {
        given[option.name] = std::to_string(*number->second);
      }
    }
    return given;
  }
};

//! What `databox refresh` parsed.
struct RefreshArgs {
  std::vector<std::string> sources;
  std::optional<int> max_workers;
  bool skip_transform = false;
  bool json = false;
  std::optional<int64_t> limit;  //!< items per resource
};

//! Items per resource in smoke mode (DATABOX_SMOKE=1).
constexpr int64_t kSmokeItems = 5;

//! The cap on items per resource: --limit, and DATABOX_SMOKE=1 (5 items), the smaller one.
//! nullopt in `cap` when neither is set; false after printing why DATABOX_SMOKE is not valid.
bool ItemCap(const std::string& command, std::optional<int64_t> limit,
             std::optional<int64_t>* cap) {
  *cap = limit;
  const char* smoke = std::getenv("DATABOX_SMOKE");
  const std::string value = smoke == nullptr ? "" : smoke;
  if (value.empty() || value == "0") return true;
  if (value != "1") {
    Err("databox " + command + ": DATABOX_SMOKE='" + value +
        "' is not valid: set it to 1 (smoke mode, " + std::to_string(kSmokeItems) +
        " items per resource) or 0; nothing was started\n");
    return false;
  }
  *cap = std::min(limit.value_or(kSmokeItems), kSmokeItems);
  return true;
}

//! Caps the records of every source at `cap` as its kind applies a cap (pagination stops once
//! it is reached; kinds that publish whole files or have caps of their own are left as they are).
void CapItems(registry::Registry& registry, int64_t cap) {
  for (registry::Source& source : registry.sources) source::KindOf(source).CapRecords(source, cap);
}

//! The options of `databox run` the kind of `source` owns, checked by the kind (with --resume);
//! nullopt after printing why not, or why an option of another kind does not apply.
std::optional<source::KindOptions> KindOptionsFor(const registry::Source& source,
                                                  const RunArgs& args) {
  const source::Kind& kind = source::KindOf(source);
  source::KindOptions own = args.Given(kind.RunOptions());
  if (Status checked = kind.CheckRun(source, own, args.resume); !checked) {
    Err("databox run " + source.name + ": " + checked.error().message + "\n");
    return std::nullopt;
  }
  for (const source::Kind* other : source::RegisteredKinds()) {
    if (other == &kind || args.Given(other->RunOptions()).empty()) continue;
    Err("databox run: " + other->ForeignOptionsMessage() + "\n");
    return std::nullopt;
  }
  return own;
}

//! The live display on a terminal (colour unless NO_COLOR, lines cut to its width) with a
//! ticker that moves its elapsed times; nothing when standard output is not a terminal.
struct LiveDisplay {
  std::unique_ptr<refresh::LiveProgress> progress;
  std::unique_ptr<refresh::LiveTicker> ticker;

  //! `print_failures`: a failed source's error printed above the lines (refresh; `databox run`
  //! prints its one error itself, below).
  static LiveDisplay OnTerminal(bool print_failures) {
    LiveDisplay display;
    if (::isatty(STDOUT_FILENO) != 1) return display;
    display.progress = std::make_unique<refresh::LiveProgress>(
        stdout, refresh::LiveProgress::Options{.colour = ColourWanted(STDOUT_FILENO),
                                               .width = StdoutWidth(),
                                               .print_failures = print_failures});
    display.ticker =
        std::make_unique<refresh::LiveTicker>(*display.progress, std::chrono::milliseconds(500));
    return display;
  }
  //! Stops the ticker and leaves the last frame on screen.
  void Finish() {
    if (!progress) return;
    ticker.reset();
    progress->Finish();
  }
};

//! `databox run --record`: marks source `name` to run live and write its responses into its
//! replay folder. False after printing why it cannot.
bool StartRecording(registry::Registry& registry, const std::string& name) {
  for (registry::Source& source : registry.sources) {
    if (source.name != name) continue;
    if (!source::KindOf(source).RecordsResponses()) {
      Err("databox run " + name + ": --record applies to HTTP API (rest_json) sources only\n");
      return false;
    }
    if (!source.replay_dir) {
      Err("databox run " + name +
          ": --record writes into the source's replay folder, and it has none: set "
          "[project.http] replay, or replay = \"FOLDER\" in the source\n");
      return false;
    }
    if (source.auth.type != registry::AuthType::kNone && !source.auth.secret.resolved()) {
      Err("databox run " + name + ": --record sends real requests and needs the secret: set " +
          source.auth.secret.env_var() + "\n");
      return false;
    }
    source.record = true;
  }
  return true;
}

ExitCode RunOne(const GlobalOptions& global, const RunArgs& args) {
  const std::string& name = args.source;
  std::optional<int64_t> cap;
  if (!ItemCap("run", args.limit, &cap)) return ExitCode::kUsage;
  auto session = OpenSession(global, "run", load::WorkspaceUse::kShared);
  if (!session) return ExitCode::kUsage;
  if (cap) CapItems(session->registry, *cap);
  const registry::Source* source = session->registry.FindSource(name);
  if (source == nullptr) {
    Err("databox run: unknown source '" + name + "'" +
        DidYouMean(name, session->registry.SourceNames()) + " (see `databox sources`)\n");
    return ExitCode::kUsage;
  }
  if (args.record && args.resume) {
    Err("databox run " + name + ": --record fetches again; it does not apply with --resume\n");
    return ExitCode::kUsage;
  }
  if (args.record && !StartRecording(session->registry, name)) return ExitCode::kUsage;
  load::SourceLoadOptions options;
  auto kind_options = KindOptionsFor(*source, args);
  if (!kind_options) return ExitCode::kUsage;
  options.kind_options = std::move(*kind_options);
  options.resume = args.resume;

  InstallInterruptHandlers();
  LiveDisplay live = LiveDisplay::OnTerminal(/*print_failures=*/false);
  auto outcome = refresh::RunSingleLoad(
      *session->workspace, "run", name,
      [&](const refresh::ProgressCallback& progress) {
        options.on_progress = progress;
        return load::LoadSource(*session->workspace, *source, options);
      },
      live.progress.get());
  live.Finish();
  if (!outcome.history_problem.empty()) Err("databox run: " + outcome.history_problem + "\n");
  const auto& loaded = outcome.loaded;
  const std::string& views_error = outcome.views_error;
  if (!loaded) {
    const bool interrupted = IsInterruption(loaded.error());
    Err("databox run " + name + ": " +
        (interrupted ? loaded.error().message : loaded.error().ToString()) + "\n");
    if (interrupted) {
      Err("databox run " + name +
          ": the load package is marked failed (interrupted); "
          "`databox loads " +
          name + "` shows whether `databox run " + name + " --resume` can finish it\n");
    }
    return outcome.record.exit_code;
  }
  Out("source " + name + " loaded, load id " + loaded->load_id + "\n");
  PrintLoadedTables(*loaded);
  if (args.record) {
    Out("  responses recorded in " + platform::RecordedCassette(*source).string() + "\n");
  }
  if (!views_error.empty()) {
    Err("databox run " + name + ": " + views_error + "\n");
    return ExitCode::kRunFailed;
  }
  return ExitCode::kOk;
}

//! Prints analytics.platform_health after a successful transform; nothing when the transform
//! project has no such model (it is the user's: databox only provides databox.platform_loads).
void PrintPlatformHealth(load::Workspace& workspace) {
  auto analytics = refresh::OpenAnalytics(workspace);
  if (!analytics) {
    Err("databox refresh: cannot open the analytics database: " + analytics.error().message + "\n");
    return;
  }
  auto model = analytics->connection.Query(
      "SELECT count(*) FROM information_schema.tables WHERE table_catalog = current_database() "
      "AND table_schema = 'analytics' AND table_name = 'platform_health'");
  if (model && model->GetInt64(0, 0).value_or(0) == 0) return;
  auto rows = analytics->connection.Query("SELECT * FROM analytics.platform_health ORDER BY 1");
  if (!rows) {
    Err("databox refresh: analytics.platform_health: " + rows.error().message + "\n");
    return;
  }
  Out("\nanalytics.platform_health\n" + FormatTable(*rows));
}

//! [project.catalog] backup_after_refresh: backs up the catalog (a REST catalog: its server's
//! database through pg_dump) after a successful refresh. A failed backup is reported on stderr
//! but does not fail the refresh, whose data is committed; stdout stays the refresh's own (it
//! may be JSON).
void BackupAfterRefresh(const registry::ProjectSettings& project) {
  if (!project.catalog.backup.after_refresh) return;
  auto backup = platform::BackupCatalog(project, std::nullopt, BackupTableLister(project));
  if (!backup) {
    Err("databox refresh: the catalog backup after the refresh failed: " + backup.error().message +
        "\n");
    return;
  }
  Err("catalog backed up into " + backup->folder.string() + "\n");
}

ExitCode Refresh(const GlobalOptions& global, const RefreshArgs& args) {
  std::optional<int64_t> cap;
  if (!ItemCap("refresh", args.limit, &cap)) return ExitCode::kUsage;
  // What needs no workspace (the sources named, what preflight can check) is checked before it
  // is opened: a refused refresh creates nothing.
  const refresh::PreflightOptions preflight{.check_transform = !args.skip_transform};
  auto session = OpenSession(
      global, "refresh", load::WorkspaceUse::kExclusive, [&](const registry::Registry& registry) {
        if (auto eligible = refresh::EligibleSources(registry, args.sources); !eligible) {
          Err("databox refresh: " + eligible.error().message + "\n");
          return false;
        }
        return PreflightPassed("refresh", refresh::RunRegistryPreflight(registry, preflight));
      });
  if (!session) return ExitCode::kUsage;
  if (cap) CapItems(session->registry, *cap);
  InstallInterruptHandlers();
  refresh::RefreshOptions options;
  options.sources = args.sources;
  options.skip_transform = args.skip_transform;
  options.registry_preflight_done = true;
  if (args.max_workers) options.max_workers = *args.max_workers;
  const bool json = args.json;
  // A terminal gets the live display, plain output the protocol lines (for readers in other
  // processes: scripts, the log of a scheduled refresh), --json neither.
  LiveDisplay live = json ? LiveDisplay{} : LiveDisplay::OnTerminal(/*print_failures=*/true);
  refresh::ProtocolPrinter printer([](std::string_view line) { Out(std::string(line) + "\n"); });
  if (live.progress) {
    options.observer = live.progress.get();
  } else if (!json) {
    options.observer = &printer;
  }
  auto outcome = refresh::RunRefresh(*session->workspace, options);
  live.Finish();
  if (!outcome) {
    Err("databox refresh: " + outcome.error().message + "\n");
    return ExitCode::kUsage;
  }
  if (!PreflightPassed("refresh", outcome->preflight_problems)) return ExitCode::kUsage;
  const refresh::RunRecord& record = outcome->record;
  if (outcome->exit_code == ExitCode::kOk) BackupAfterRefresh(session->registry.project);
  if (!outcome->history_problem.empty()) Err("databox refresh: " + outcome->history_problem + "\n");
  if (json) {
    Out(record.ToJson().dump(2) + "\n");
    return outcome->exit_code;
  }
  Out("\nrun " + record.run_id + "\n");
  for (const auto& s : record.sources) {
    const std::string status(refresh::SourceStatusName(s.status));
    const std::string phase(load::OptionalPhaseName(s.phase));
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

//! The example sources of the kinds that name one, comma-separated, in registration order.
std::string ExampleSources() {
  std::string names;
  for (const source::Kind* kind : platform::SourceKinds()) {
    if (kind->ExampleSource().empty()) continue;
    names += (names.empty() ? "" : ", ") + kind->ExampleSource();
  }
  return names;
}

//! Adds the options every source kind owns to `databox run`, kind by kind, into `args`.
void AddKindOptions(CLI::App& app, RunArgs& args) {
  for (const source::Kind* kind : platform::SourceKinds()) {
    for (const source::RunOption& option : kind->RunOptions()) {
      const std::string flag = "--" + option.name;
      if (!option.range) {
        app.add_option(flag, args.kind_text[option.name], option.help)
            ->option_text(option.value_name);
        continue;
      }
      app.add_option(flag, args.kind_numbers[option.name], option.help)
          ->option_text(option.value_name)
          ->check(CLI::Range(option.range->first, option.range->second));
    }
  }
}

}  // namespace

Command RunCommand() {
  return Command{
      "run", "Load one source into its raw_<source> namespace",
      "Extracts, normalizes and commits one source; prints rows written and the new\n"
      "snapshot id per table. Explicit-only sources (" +
          ExampleSources() +
          ") run only this way.\n"
          "Fails at once (exit 1) while another databox process is loading the same source.\n"
          "Ctrl-C (SIGINT) or SIGTERM stops the load at the next request or resource (a commit\n"
          "that started finishes), records the run as interrupted, marks its load package failed\n"
          "and exits 130 or 143; a second Ctrl-C ends the process at once.",
      [](CLI::App& app) -> Runner {
        auto args = std::make_shared<RunArgs>();
        app.add_option("SOURCE", args->source, "the source to load (`databox sources` lists them)")
            ->required();
        app.add_flag("--resume", args->resume,
                     "finish the last load package of this source without fetching again");
        AddKindOptions(app, *args);
        app.add_option("--limit", args->limit,
                       "load at most N items per resource (HTTP API sources; DATABOX_SMOKE=1 "
                       "caps at 5)")
            ->option_text("N")
            ->check(WholeNumberAtLeastOne());
        app.add_flag("--record", args->record,
                     "send real requests and write the responses, secrets redacted, into "
                     "<replay folder>/recorded.yaml so the source replays offline");
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
      "carries the protocol lines of docs/refresh.md; a terminal gets a live display.\n"
      "Ctrl-C (SIGINT) or SIGTERM starts no further source, stops the running loads at\n"
      "their next request or resource, skips the inspection and transform if not begun,\n"
      "stops a running transform (SIGTERM to its process group, SIGKILL after a grace\n"
      "period), records the run (sources or transform interrupted) and exits 130 or 143.",
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
        app.add_option("--limit", args->limit,
                       "load at most N items per resource (HTTP API sources; DATABOX_SMOKE=1 "
                       "caps at 5)")
            ->option_text("N")
            ->check(WholeNumberAtLeastOne());
        app.add_flag("--json", args->json, "print a machine-readable summary instead");
        return [args](const GlobalOptions& global) { return Refresh(global, *args); };
      }};
}

}  // namespace databox::cli
