// `databox publish`: a new version of the raw tables and models at a target (docs/publish.md).
// The logic is publish::Publish; this file parses, prints and records.
#include <unistd.h>

#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "cli/command_line.h"
#include "cli/commands.h"
#include "cli/load_list.h"
#include "cli/output.h"
#include "cli/session.h"
#include "common/clock.h"
#include "common/exit_code.h"
#include "platform/publish_target.h"
#include "publish/publisher.h"
#include "publish/run_record.h"
#include "refresh/run_history.h"

namespace databox::cli {
namespace {

struct PublishArgs {
  std::optional<std::string> to;
  std::vector<std::string> only;
  bool dry_run = false;
};

//! Redraws one progress line on a terminal, at most ten times a second.
class ProgressLine {
 public:
  explicit ProgressLine(bool terminal) : terminal_(terminal) {}
  void Update(const publish::CopyProgress& p) {
    if (!terminal_) return;
    const auto now = std::chrono::steady_clock::now();
    if (p.files_done != p.files_total && now - last_ < std::chrono::milliseconds(100)) return;
    last_ = now;
    Err("\rcopying data files: " + std::to_string(p.files_done) + "/" +
        std::to_string(p.files_total) + ", " + FormatBytes(p.bytes_done) + " of " +
        FormatBytes(p.bytes_total) + "   ");
    drawn_ = true;
  }
  void Finish() {
    if (drawn_) Err("\n");
  }

 private:
  bool terminal_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point last_{};
};

publish::Selection SelectionOf(const registry::Registry& registry, const PublishArgs& args) {
  publish::Selection selection;
  if (registry.publish) {
    selection.namespaces = registry.publish->namespaces;
    selection.tables = registry.publish->tables;
    selection.models = registry.publish->models;
  }
  selection.only = args.only;
  return selection;
}

void PrintDryRun(const publish::Outcome& outcome, const std::string& root) {
  Out("dry run: version " + std::to_string(outcome.version) + " at " + root + " would hold:\n");
  uint64_t files = 0, bytes = 0;
  for (const publish::RelationOutcome& r : outcome.relations) {
    if (r.kind == publish::RelationKind::kDuckDbTable) {
      Out("  " + r.name + "  model, into the version's models.duckdb\n");
      continue;
    }
    Out("  " + r.name + "  " + std::to_string(r.rows) + " rows, " + std::to_string(r.files) +
        " files; to copy: " + std::to_string(r.files_to_copy) + " (" +
        FormatBytes(r.bytes_to_copy) + ")\n");
    files += r.files_to_copy;
    bytes += r.bytes_to_copy;
  }
  Out("would copy " + std::to_string(files) + " files (" + FormatBytes(bytes) +
      "); nothing was written\n");
}

void PrintPublished(const publish::Outcome& outcome, const std::string& root) {
  for (const publish::RelationOutcome& r : outcome.relations) {
    Out("  " + r.name + "  " + std::to_string(r.rows) + " rows\n");
  }
  Out("copied " + std::to_string(outcome.copied.files_copied) + " files (" +
      FormatBytes(outcome.copied.bytes_copied) + "), " +
      std::to_string(outcome.copied.files_present) + " already at the target (" +
      FormatBytes(outcome.copied.bytes_present) + ")\n");
  if (outcome.current) {
    Out("version " + std::to_string(outcome.version) + " is current at " + root + " (" +
        std::to_string(outcome.versions_removed) + " old versions and " +
        std::to_string(outcome.files_removed) + " files removed)\n");
  }
}

ExitCode Publish(const GlobalOptions& global, const PublishArgs& args) {
  auto session = OpenSession(global, "publish", load::WorkspaceUse::kShared);
  if (!session) return ExitCode::kUsage;
  auto storage = platform::OpenPublishStorage(session->registry, args.to);
  if (!storage) {
    Err("databox publish: " + storage.error().message + "\n");
    return ExitCode::kUsage;
  }
  const std::string started_at = NowIso();
  ProgressLine progress(::isatty(STDERR_FILENO) == 1);
  std::mutex progress_mutex;
  publish::Request request;
  request.selection = SelectionOf(session->registry, args);
  request.dry_run = args.dry_run;
  request.keep = session->registry.publish ? session->registry.publish->keep : 3;
  request.databox_version = DataboxVersion();
  request.progress = [&](const publish::CopyProgress& p) {
    std::lock_guard lock(progress_mutex);
    progress.Update(p);
  };
  const publish::Target target{storage->io, storage->root, storage->duckdb_s3};
  auto outcome = publish::Publish(*session->workspace, target, request);
  progress.Finish();
  if (!outcome) {
    // Refused before anything was written: the target or the selection.
    Err("databox publish: " + outcome.error().message + "; nothing was published\n");
    return ExitCode::kUsage;
  }
  if (args.dry_run) {
    PrintDryRun(*outcome, storage->root);
    return ExitCode::kOk;
  }
  PrintPublished(*outcome, storage->root);
  const bool ok = outcome->current && outcome->error.empty();
  for (const std::string& problem : outcome->problems) Err("databox publish: " + problem + "\n");
  if (!outcome->error.empty()) Err("databox publish: " + outcome->error + "\n");
  const ExitCode code = ok ? ExitCode::kOk : ExitCode::kRunFailed;
  const refresh::RunHistory history(session->workspace->state_dir());
  if (auto appended =
          history.Append(publish::PublishRecord(*outcome, storage->root, started_at, code));
      !appended) {
    Err("databox publish: this run could not be recorded in the run history: " +
        appended.error().message + "\n");
  }
  return code;
}

}  // namespace

Command PublishCommand() {
  return Command{
      "publish", "Publish raw tables and models for consumers on other machines",
      "Writes a new version of the raw Iceberg tables and the transform's models to a target\n"
      "(s3://bucket/prefix or a local folder) that readers open without a catalog or server:\n"
      "each raw table's current snapshot as an Iceberg table of its own (metadata, manifest\n"
      "list and manifests naming only target locations; data files copied once, delete files\n"
      "rewritten), the models as tables of one read-only DuckDB file, and manifest.json with\n"
      "each relation's schema, schema SHA-256, rows, snapshot and load ids. Every relation is\n"
      "read back from the target by DuckDB before current.json, the pointer consumers read\n"
      "first, moves to the new version (conditional write), so a failed or killed publish\n"
      "leaves the previous version current; versions beyond [publish] keep (default 3) are\n"
      "then removed. The target and what is published come from the registry's [publish]\n"
      "(docs/publish.md); without it, --to publishes every raw table and every model.\n"
      "A target holding files databox publish did not write is refused. Recorded in the run\n"
      "history (command publish); --dry-run writes nothing to the target and records\n"
      "nothing. Exit 0 published,\n"
      "1 failed (the previous version stays current), 2 bad usage or target.",
      [](CLI::App& app) -> Runner {
        auto args = std::make_shared<PublishArgs>();
        app.add_option("--to", args->to,
                       "target: s3://bucket/prefix or a folder (instead of [publish] to)")
            ->option_text("URI");
        app.add_option("--only", args->only,
                       "publish only these: raw_<source> namespaces, raw_<source>.<table> "
                       "tables, <schema>.<model> models (repeatable)")
            ->option_text("NAME ...");
        app.add_flag("--dry-run", args->dry_run,
                     "list what would be published and copied (files and bytes); write nothing "
                     "to the target and record nothing");
        return [args](const GlobalOptions& global) { return Publish(global, *args); };
      }};
}

}  // namespace databox::cli
