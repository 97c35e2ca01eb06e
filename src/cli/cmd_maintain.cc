// `databox maintain`: compaction of merge-on-read deletes, snapshot expiry and orphan-file
// listing/removal for raw tables (iceberg/data/merge.h, iceberg/commit/maintenance.h). Dry run
// unless
// --remove; docs/maintenance.md.
#include <chrono>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/output.h"
#include "cli/session.h"
#include "common/clock.h"
#include "common/exit_code.h"
#include "common/json_integer.h"
#include "duck/connection.h"
#include "duck/database.h"
#include "iceberg/commit/commit_marker.h"
#include "iceberg/commit/maintenance.h"
#include "iceberg/data/merge.h"
#include "iceberg/spec/table_identifier.h"
#include "iceberg/table.h"

namespace databox::cli {
namespace {

using std::chrono::milliseconds;

constexpr int64_t kMsPerSecond = 1000;

//! "3d 4h", "12m", "40s": the two largest units of an age.
std::string FormatAge(std::optional<int64_t> age_ms) {
  if (!age_ms) return "age unknown";
  int64_t s = *age_ms / kMsPerSecond;
  const int64_t d = s / 86400, h = s % 86400 / 3600, m = s % 3600 / 60;
  s %= 60;
  if (d > 0) return std::to_string(d) + "d " + std::to_string(h) + "h";
  if (h > 0) return std::to_string(h) + "h " + std::to_string(m) + "m";
  if (m > 0) return std::to_string(m) + "m " + std::to_string(s) + "s";
  return std::to_string(s) + "s";
}

//! What `databox maintain` parsed.
struct MaintainArgs {
  std::optional<std::string> table;
  bool all = false;
  bool dry_run = false;
  bool remove = false;
  std::optional<std::string> older_than;
  bool rewrite_deletes = false;
  bool rewrite_specs = false;
  bool expire_snapshots = false;
  std::optional<int> retain_last;
  std::optional<std::string> retain_newer_than;
  bool json = false;
};

struct MaintainSettings {
  bool remove = false;
  milliseconds older_than = iceberg::kDefaultOrphanMinAge;
  std::string older_than_text = "3d";
  std::optional<iceberg::ExpireOptions> expire;
  bool rewrite_deletes = false;
  bool rewrite_specs = false;
};

using PrepareRewrite = Result<std::unique_ptr<iceberg::SnapshotOperation>> (*)(
    duck::Connection&, const iceberg::Table&, const iceberg::RowChangeOptions&);

//! Prepares a rewrite of `table` with DuckDB reading its files and commits it; whether there
//! was anything to rewrite.
Result<bool> CommitRewrite(load::Workspace& ws, const iceberg::Table& table,
                           PrepareRewrite prepare) {
  DATABOX_ASSIGN_OR_RETURN(auto db, duck::Database::Open(""));
  DATABOX_ASSIGN_OR_RETURN(auto conn, duck::Connection::Open(db));
  DATABOX_RETURN_IF_ERROR(ws.PrepareDuckDbReads(conn));
  DATABOX_ASSIGN_OR_RETURN(auto op, prepare(conn, table, {}));
  if (op != nullptr) DATABOX_RETURN_IF_ERROR(op->Commit(ws.catalog()));
  return op != nullptr;
}

//! --rewrite-specs for one table: reports (dry run) or rewrites the data files listed under an
//! earlier partition spec than the default one, as files of the default spec.
Status RewriteSpecs(load::Workspace& ws, const iceberg::TableIdentifier& table, bool commit,
                    nlohmann::ordered_json& json, std::string& text) {
  const std::string name = table.ToString();
  DATABOX_ASSIGN_OR_RETURN(auto loaded, iceberg::Table::Load(ws.catalog(), ws.file_io(), table));
  DATABOX_ASSIGN_OR_RETURN(auto live, loaded.Live());
  const int32_t spec_id = loaded.metadata().default_spec_id;
  const auto outside = iceberg::DataFilesOutsideSpec(live, spec_id);
  int64_t rows = 0;
  for (const auto& file : outside) rows += file.record_count;
  const std::string counts = std::to_string(outside.size()) + " data file(s) of " +
                             std::to_string(rows) + " row(s) under an earlier spec";
  json["rewrite_specs"] = {{"default_spec_id", spec_id},
                           {"data_files", outside.size()},
                           {"rows", rows},
                           {"rewritten", false}};
  if (!commit || outside.empty()) {
    text +=
        name + ": " +
        (outside.empty() ? "every data file is under the default spec " + std::to_string(spec_id)
                         : "would rewrite " + counts + " as spec " + std::to_string(spec_id)) +
        "\n";
    return Ok();
  }
  DATABOX_ASSIGN_OR_RETURN(bool rewritten, CommitRewrite(ws, loaded, iceberg::PrepareSpecRewrite));
  json["rewrite_specs"]["rewritten"] = rewritten;
  text += name + ": rewrote " + counts + " as spec " + std::to_string(spec_id) + "\n";
  return Ok();
}

//! --rewrite-deletes for one table: reports (dry run) or rewrites the data files that
//! merge-on-read position deletes apply to.
Status RewriteDeletes(load::Workspace& ws, const iceberg::TableIdentifier& table, bool commit,
                      nlohmann::ordered_json& json, std::string& text) {
  const std::string name = table.ToString();
  DATABOX_ASSIGN_OR_RETURN(auto loaded, iceberg::Table::Load(ws.catalog(), ws.file_io(), table));
  DATABOX_ASSIGN_OR_RETURN(auto pending, iceberg::DeletedRows(loaded));
  const std::string counts = std::to_string(pending.data_files.size()) + " data file(s) with " +
                             std::to_string(pending.delete_files.size()) + " delete file(s), " +
                             std::to_string(pending.positions) + " deleted row(s)";
  json["rewrite_deletes"] = {{"data_files", pending.data_files.size()},
                             {"delete_files", pending.delete_files.size()},
                             {"deleted_rows", pending.positions},
                             {"rewritten", false}};
  if (!commit || pending.data_files.empty()) {
    text += name + ": " +
            (pending.data_files.empty() ? "no position deletes to rewrite"
                                        : "would rewrite " + counts) +
            "\n";
    return Ok();
  }
  DATABOX_ASSIGN_OR_RETURN(bool rewritten,
                           CommitRewrite(ws, loaded, iceberg::PrepareDeleteRewrite));
  json["rewrite_deletes"]["rewritten"] = rewritten;
  text += name + ": rewrote " + counts + "\n";
  return Ok();
}

//! The tables to maintain: the positional, or with --all every table in each source's
//! raw_<source> namespace that exists.
Result<std::vector<iceberg::TableIdentifier>> Targets(Session& session, const MaintainArgs& args) {
  if (args.table) {
    DATABOX_ASSIGN_OR_RETURN(auto ident, iceberg::ParseTableIdentifier(*args.table));
    return std::vector<iceberg::TableIdentifier>{std::move(ident)};
  }
  auto& catalog = session.workspace->catalog();
  std::vector<iceberg::TableIdentifier> out;
  for (const auto& source : session.registry.sources) {
    const iceberg::Namespace ns{source.Namespace()};
    DATABOX_ASSIGN_OR_RETURN(bool exists, catalog.NamespaceExists(ns));
    if (!exists) continue;
    DATABOX_ASSIGN_OR_RETURN(auto tables, catalog.ListTables(ns));
    for (auto& t : tables) out.push_back(std::move(t));
  }
  return out;
}

//! With --all --remove on the embedded SQL catalog: deletes the commit markers
//! (iceberg/commit/commit_marker.h) older than --older-than whose files later commits supersede.
Status PruneMarkers(Session& session, const MaintainSettings& settings,
                    nlohmann::ordered_json& json, std::string& text) {
  const registry::ProjectSettings& project = session.registry.project;
  if (project.catalog.type != registry::CatalogType::kSql || !settings.remove) return Ok();
  load::Workspace& ws = *session.workspace;
  std::map<std::string, std::set<std::string>> logs;  // table -> its current metadata-log
  auto superseded = [&](const iceberg::TableIdentifier& table,
                        const std::string& location) -> Result<bool> {
    auto [it, fresh] = logs.try_emplace(table.ToString());
    if (fresh) {
      auto loaded = ws.catalog().LoadTable(table);
      if (!loaded && loaded.error().kind != ErrorKind::kNotFound) {
        return std::unexpected(loaded.error());
      }
      if (loaded) {
        for (const auto& e : loaded->metadata.metadata_log) it->second.insert(e.metadata_file);
      }
    }
    return it->second.contains(location);
  };
  DATABOX_ASSIGN_OR_RETURN(auto pruned, iceberg::PruneCommitMarkers(
                                            *ws.file_io(), project.warehouse.location,
                                            project.catalog.name, settings.older_than, superseded));
  json["commit_markers"] = {{"removed", pruned.removed}, {"kept", pruned.kept}};
  text += "commit markers: " + std::to_string(pruned.removed) +
          " removed (later commits supersede them), " + std::to_string(pruned.kept) + " kept\n";
  return Ok();
}

//! Maintains one table; fills `json` and `text`. Errors leave what was done so far in both.
Status MaintainTable(load::Workspace& ws, const iceberg::TableIdentifier& table,
                     const MaintainSettings& settings, nlohmann::ordered_json& json,
                     std::string& text) {
  const std::string name = table.ToString();
  json["table"] = name;
  iceberg::OrphanOptions orphan_options;
  orphan_options.min_age = settings.older_than;
  orphan_options.remove = settings.remove;
  if (settings.rewrite_specs) {
    DATABOX_RETURN_IF_ERROR(RewriteSpecs(ws, table, settings.remove, json, text));
  }
  if (settings.rewrite_deletes) {
    DATABOX_RETURN_IF_ERROR(RewriteDeletes(ws, table, settings.remove, json, text));
  }
  if (settings.expire) {
    iceberg::ExpireSnapshots expire(table, *settings.expire);
    std::vector<int64_t> ids;
    if (settings.remove) {
      DATABOX_RETURN_IF_ERROR(iceberg::CommitChange(ws.catalog(), *ws.file_io(), expire));
      ids = expire.expired();
    } else {
      DATABOX_ASSIGN_OR_RETURN(auto loaded, ws.catalog().LoadTable(table));
      ids = iceberg::SnapshotsToExpire(loaded.metadata, *settings.expire);
      orphan_options.without_snapshots = ids;
    }
    json["expired_snapshots"] = nlohmann::json::array();
    for (int64_t id : ids)
      json["expired_snapshots"].push_back(JsonInteger<nlohmann::ordered_json>(id));
    std::string list;
    for (int64_t id : ids) list += (list.empty() ? "" : ", ") + std::to_string(id);
    text += name + ": " + (settings.remove ? "expired " : "would expire ") +
            std::to_string(ids.size()) + " snapshot(s)" + (ids.empty() ? "" : " (" + list + ")") +
            "\n";
  }
  DATABOX_ASSIGN_OR_RETURN(
      auto report, iceberg::FindOrphanFiles(ws.catalog(), *ws.file_io(), table, orphan_options));
  json["metadata_location"] = report.metadata_location;
  nlohmann::ordered_json orphans = nlohmann::ordered_json::array();
  uint64_t bytes = 0;
  size_t old_enough = 0, removed = 0;
  for (const auto& o : report.orphans) {
    bytes += o.size;
    old_enough += o.old_enough ? 1 : 0;
    removed += o.removed ? 1 : 0;
    orphans.push_back({{"path", o.location},
                       {"size", o.size},
                       {"age_seconds", o.age_ms ? nlohmann::ordered_json(*o.age_ms / kMsPerSecond)
                                                : nlohmann::ordered_json()},
                       {"old_enough", o.old_enough},
                       {"removed", o.removed}});
    const std::string state = o.removed      ? "removed"
                              : o.old_enough ? (settings.remove ? "kept" : "removable")
                                             : "younger than " + settings.older_than_text;
    text += "  " + o.location + "  " + std::to_string(o.size) + " bytes  " + FormatAge(o.age_ms) +
            "  " + state + "\n";
  }
  json["orphans"] = orphans;
  json["orphan_files"] = report.orphans.size();
  json["orphan_bytes"] = bytes;
  json["older_than_limit"] = old_enough;
  json["removed"] = removed;
  json["missing"] = report.missing;
  for (const auto& m : report.missing)
    text += "  MISSING (referenced, not in storage): " + m + "\n";
  json["foreign_metadata"] = report.foreign_metadata;
  json["foreign_files"] = report.foreign_files;
  for (const auto& f : report.foreign_metadata) {
    text += "  ANOTHER TABLE'S METADATA (kept with the files it references): " + f + "\n";
  }
  if (report.foreign_files > 0) {
    text += "  " + std::to_string(report.foreign_files) +
            " file(s) in these folders belong to another table and are never removed here\n";
  }
  json["history_versions"] = report.history_versions;
  json["history_files"] = report.history_files;
  if (report.history_files > 0) {
    text += "  " + std::to_string(report.history_files) + " file(s) only earlier versions (" +
            std::to_string(report.history_versions) +
            ") reference are kept: the catalog keeps the table's history itself and can still "
            "serve them (its own garbage collection removes them)\n";
  }
  text += name + ": " + std::to_string(report.orphans.size()) + " orphan file(s), " +
          std::to_string(bytes) + " bytes; " + std::to_string(old_enough) + " older than " +
          settings.older_than_text + "; " +
          (settings.remove ? std::to_string(removed) + " removed"
                           : "dry run, nothing removed (--remove deletes the older ones)") +
          "; " + std::to_string(report.referenced_files) + " referenced file(s)\n";
  return Ok();
}

ExitCode Maintain(const GlobalOptions& global, const MaintainArgs& args) {
  auto usage = [](const std::string& message) {
    Err("databox maintain: " + message + "\n");
    return ExitCode::kUsage;
  };
  if (args.all == args.table.has_value()) {
    return usage("name one table (NAMESPACE.TABLE) or pass --all");
  }
  if (args.remove && args.dry_run) return usage("--dry-run and --remove conflict");
  MaintainSettings settings;
  settings.remove = args.remove;
  if (const auto& text = args.older_than) {
    auto parsed = ParseDuration(*text);
    if (!parsed) return usage("--older-than: '" + *text + "' is not a duration like 3d, 12h, 30m");
    settings.older_than = *parsed;
    settings.older_than_text = *text;
  }
  if ((args.retain_last || args.retain_newer_than) && !args.expire_snapshots) {
    return usage("--retain-last and --retain-newer-than apply with --expire-snapshots only");
  }
  settings.rewrite_deletes = args.rewrite_deletes;
  settings.rewrite_specs = args.rewrite_specs;
  if (args.expire_snapshots) {
    iceberg::ExpireOptions expire;
    if (args.retain_last) expire.retain_last = *args.retain_last;
    if (const auto& text = args.retain_newer_than) {
      auto parsed = ParseDuration(*text);
      if (!parsed) return usage("--retain-newer-than: '" + *text + "' is not a duration");
      expire.keep_newer_than_ms = iceberg::NowMs() - parsed->count();
    }
    settings.expire = expire;
  }

  auto session = OpenSession(global, "maintain");
  if (!session) return ExitCode::kUsage;
  auto targets = Targets(*session, args);
  if (!targets) return usage(targets.error().message);

  nlohmann::ordered_json json;
  json["dry_run"] = !settings.remove;
  json["older_than_seconds"] = settings.older_than.count() / kMsPerSecond;
  json["tables"] = nlohmann::ordered_json::array();
  std::string text;
  int failed = 0;
  for (const auto& table : *targets) {
    nlohmann::ordered_json entry;
    std::string table_text;
    auto done = MaintainTable(*session->workspace, table, settings, entry, table_text);
    if (!done) {
      ++failed;
      entry["error"] = done.error().message;
      Err("databox maintain: " + table.ToString() + ": " + done.error().message + "\n");
    }
    json["tables"].push_back(std::move(entry));
    text += table_text;
  }
  if (targets->empty()) text += "no raw tables to maintain\n";
  if (args.all && failed == 0) {
    if (auto pruned = PruneMarkers(*session, settings, json, text); !pruned) {
      ++failed;
      json["commit_markers"] = {{"error", pruned.error().message}};
      Err("databox maintain: commit markers: " + pruned.error().message + "\n");
    }
  }
  Out(args.json ? json.dump(2) + "\n" : text);
  return failed == 0 ? ExitCode::kOk : ExitCode::kRunFailed;
}

}  // namespace

Command MaintainCommand() {
  return Command{
      "maintain",
      "Compact deletes, expire old snapshots, list or remove orphan files of raw tables",
      "Name one table or pass --all. Orphan files are files under a table's data/ and\n"
      "metadata/ folders that no metadata reachable from the current metadata references\n"
      "(snapshots' manifest lists, manifests, live data files, the metadata log, statistics\n"
      "files). A dry run (the default) lists every one with its size and age and changes\n"
      "nothing. --remove deletes only those older than --older-than (default 3d): a\n"
      "younger file may belong to a commit in flight. One line per orphan file, then a\n"
      "summary line per table.\n"
      "--expire-snapshots removes old snapshots from the metadata in one catalog commit\n"
      "(with --remove; a dry run names the snapshots it would expire and lists the files\n"
      "that would become orphans): it keeps the current snapshot, every branch and tag\n"
      "head, the N newest of main's history and, with --retain-newer-than, every newer\n"
      "snapshot. Files only expired snapshots referenced are orphans from then on.\n"
      "--rewrite-deletes first compacts what merge-on-read left: every data file that\n"
      "position deletes apply to is rewritten without the deleted rows and those delete\n"
      "files are dropped, in one 'replace' snapshot (with --remove; a dry run counts\n"
      "them). The old files stay referenced by older snapshots until those expire.\n"
      "Rewrites write one group of files per partition of the table's current spec:\n"
      "no new file holds rows of two partitions. --rewrite-deletes leaves files under\n"
      "an earlier spec (after the spec evolved) alone; --rewrite-specs, run before it,\n"
      "rewrites those as files of the current spec (applying their deletes), in one\n"
      "'replace' snapshot (with --remove; a dry run counts them).\n"
      "--all --remove on the embedded SQL catalog also deletes the commit markers in\n"
      "<warehouse>/_databox/commits/ older than AGE whose files later commits supersede.\n"
      "AGE is a number with s, m, h or d (3d, 12h, 0). Exit 0 when every table was\n"
      "maintained, 1 when one failed (the others still run), 2 on usage errors.",
      [](CLI::App& app) -> Runner {
        auto args = std::make_shared<MaintainArgs>();
        app.add_option("NAMESPACE.TABLE", args->table, "the raw table to maintain");
        app.add_flag("--all", args->all, "every table in every source's raw_<source> namespace");
        app.add_flag("--dry-run", args->dry_run, "list only, change nothing (the default)");
        app.add_flag("--remove", args->remove,
                     "delete orphans older than --older-than; commit the expiry and rewrite");
        app.add_option("--older-than", args->older_than,
                       "minimum age of an orphan file to be removed (default 3d)")
            ->option_text("AGE");
        app.add_flag("--rewrite-deletes", args->rewrite_deletes,
                     "rewrite data files that position deletes apply to");
        app.add_flag("--rewrite-specs", args->rewrite_specs,
                     "rewrite data files of earlier partition specs under the current one");
        app.add_flag("--expire-snapshots", args->expire_snapshots,
                     "expire snapshots before looking for orphans");
        app.add_option("--retain-last", args->retain_last,
                       "with --expire-snapshots: newest snapshots of main to keep (default 1)")
            ->option_text("N")
            ->check(WholeNumberAtLeastOne());
        app.add_option("--retain-newer-than", args->retain_newer_than,
                       "with --expire-snapshots: also keep snapshots this new")
            ->option_text("AGE");
        app.add_flag("--json", args->json, "machine-readable output");
        return [args](const GlobalOptions& global) { return Maintain(global, *args); };
      }};
}

}  // namespace databox::cli
