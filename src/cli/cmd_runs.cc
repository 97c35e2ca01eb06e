// `databox runs` and `databox runs show RUN_ID`: the run history (<state_dir>/runs.jsonl) as a
// list of runs and as the trace of one run. Reads the registry only for state_dir: no catalog,
// storage or network is touched.
#include <memory>
#include <string>

#include "cli/commands.h"
#include "cli/output.h"
#include "cli/run_list.h"
#include "common/exit_code.h"
#include "refresh/run_history.h"
#include "registry/registry.h"

namespace databox::cli {
namespace {

//! What `databox runs [show]` parsed.
struct RunsArgs {
  int limit = 20;
  bool json = false;
  std::string run_id;
  CLI::App* show = nullptr;  //!< chosen when parsed()
};

ExitCode Runs(const GlobalOptions& global, const RunsArgs& args) {
  const std::string command = args.show->parsed() ? "databox runs show" : "databox runs";
  auto loaded = registry::LoadRegistry(global.config_path);
  if (!loaded) {
    Err(command + ": " + loaded.error().message + "\n");
    return ExitCode::kUsage;
  }
  auto records = refresh::RunHistory(loaded->project.state_dir).ReadAll();
  if (!records) {
    Err(command + ": " + records.error().message + "\n");
    return ExitCode::kRunFailed;
  }
  if (!args.show->parsed()) {
    const auto newest =
        refresh::NewestRuns(std::move(*records), static_cast<std::size_t>(args.limit));
    Out(args.json ? RunListJson(newest).dump(2) + "\n" : FormatRunList(newest));
    return ExitCode::kOk;
  }
  auto run = FindRun(*records, args.run_id);
  if (!run) {
    Err(command + ": " + run.error().message + "\n");
    return run.error().kind == ErrorKind::kNotFound ? ExitCode::kRunFailed : ExitCode::kUsage;
  }
  Out(args.json ? RunTraceJson(*run).dump(2) + "\n" : FormatRunTrace(*run));
  return ExitCode::kOk;
}

}  // namespace

Command RunsCommand() {
  return Command{
      "runs", "List recent runs, or show one run's sources, errors and transform",
      "Reads the run history (<state_dir>/runs.jsonl, docs/run_history.md), which every\n"
      "`databox refresh`, `databox run`, `databox ingest`, `databox transform` and\n"
      "`databox publish` append to (a publish lists each published relation as a source).\n"
      "Each line: run id, command, start time (UTC), duration, status (ok, failed, refused,\n"
      "interrupted, terminated) and how many sources loaded and failed. Exit 1 when the history\n"
      "cannot be read.",
      [](CLI::App& app) -> Runner {
        auto args = std::make_shared<RunsArgs>();
        app.require_subcommand(0, 1);
        app.add_option("--limit", args->limit, "show the newest N runs (default 20)")
            ->option_text("N")
            ->check(WholeNumberAtLeastOne());
        app.add_flag("--json", args->json, "machine-readable output");
        args->show = app.add_subcommand(
            "show", "Show one run: every source's status, rows, snapshots, error and phase");
        args->show->footer(
            "RUN_ID is the id `databox runs` lists, or a prefix of it that only one run has.\n"
            "For each source: its status, the load phase it failed in (extract, normalize,\n"
            "commit, inspection, or load for `databox ingest`), load id, start, rows, the new\n"
            "snapshot of each table it committed, its error and notes; for a refresh also the\n"
            "inspection and the transform's status and log tail, for `databox transform` only\n"
            "the transform, for `databox publish` the read-back (its relations fail in phase\n"
            "load or inspection). Exit 1 when no run has the id.");
        args->show->add_option("RUN_ID", args->run_id, "the run, e.g. 2026-11-30T02:10:58.659Z")
            ->required();
        args->show->add_flag("--json", args->json, "machine-readable output");
        return [args](const GlobalOptions& global) { return Runs(global, *args); };
      }};
}

}  // namespace databox::cli
