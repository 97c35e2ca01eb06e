#include "cli/cmd_catalog_recover.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>

#include "cli/output.h"
#include "platform/catalog_recover.h"
#include "registry/registry.h"

namespace databox::cli {
namespace {

using iceberg::RecoveryAction;

//! "00004-….metadata.json": the file name, enough to tell versions apart in a report.
std::string FileName(const std::string& location) {
  const size_t slash = location.rfind('/');
  return slash == std::string::npos ? location : location.substr(slash + 1);
}

std::string ActionWords(const iceberg::TableRecovery& t, bool applied) {
  switch (t.action) {
    case RecoveryAction::kRegister:
      return applied ? "registered" : "would register";
    case RecoveryAction::kRollForward:
      return applied ? "rolled forward" : "would roll forward";
    default:
      return std::string(iceberg::RecoveryActionName(t.action));
  }
}

std::string Seconds(double seconds) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.2f", seconds);
  return text;
}

struct RecoverArgs {
  bool from_warehouse = false;
  iceberg::RecoveryOptions options;
  std::optional<std::string> tables_under;
  bool json = false;
};

ExitCode Recover(const GlobalOptions& global, const RecoverArgs& args) {
  auto fail = [](const Error& error) {
    Err("databox catalog recover: " + error.message + "\n");
    return error.kind == ErrorKind::kConfig ? ExitCode::kUsage : ExitCode::kRunFailed;
  };
  if (!args.from_warehouse) {
    Err("databox catalog recover: say where to recover from: --from-warehouse (the only source "
        "so far)\n");
    return ExitCode::kUsage;
  }
  auto loaded = registry::LoadRegistry(global.config_path);
  if (!loaded) return fail(loaded.error());
  const auto start = std::chrono::steady_clock::now();
  auto recovery = platform::RecoverCatalog(loaded->project, args.options, args.tables_under);
  if (!recovery) return fail(recovery.error());
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  Out(args.json ? RecoveryJson(*recovery, args.options.apply, seconds).dump(2) + "\n"
                : FormatRecovery(*recovery, args.options.apply, seconds));
  const bool lost = std::ranges::any_of(
      recovery->tables, [](const auto& t) { return t.action == RecoveryAction::kNotRecovered; });
  return lost ? ExitCode::kRunFailed : ExitCode::kOk;
}

}  // namespace

std::string FormatRecovery(const iceberg::WarehouseRecovery& recovery, bool applied,
                           double seconds) {
  std::string out;
  std::map<std::string, int> counts;
  size_t unconfirmed = 0;
  for (const auto& t : recovery.tables) {
    const std::string action = ActionWords(t, applied);
    ++counts[action];
    out += t.table.ToString() + ": " + action;
    if (t.chosen) {
      out += " " + FileName(*t.chosen);
      if (t.snapshot_id) out += " (snapshot " + std::to_string(*t.snapshot_id) + ")";
      out += ", confirmed by " + t.confirmed_by;
    }
    if (t.catalog_had && *t.catalog_had != t.chosen) {
      out += "; the catalog has " + FileName(*t.catalog_had);
    }
    if (!t.note.empty()) out += "; " + t.note;
    out += "\n";
    for (const auto& r : t.refused) {
      out += "    skipped " + FileName(r.location) + ": " + r.reason + "\n";
      if (r.unconfirmed) ++unconfirmed;
    }
  }
  for (const auto& marker : recovery.unreadable_markers) {
    out += "unreadable commit marker " + marker + "\n";
  }
  std::string summary;
  for (const auto& [action, n] : counts) {
    summary += (summary.empty() ? "" : ", ") + std::to_string(n) + " " + action;
  }
  if (recovery.tables.empty()) out += "no table folders under " + recovery.tables_under + "\n";
  out += std::to_string(recovery.tables.size()) + " tables" +
         (summary.empty() ? "" : " (" + summary + ")") + " from " +
         std::to_string(recovery.metadata_files) + " metadata files and " +
         std::to_string(recovery.marker_files) + " commit markers in " + Seconds(seconds) + " s\n";
  if (!recovery.evidence_note.empty()) out += recovery.evidence_note + "\n";
  if (unconfirmed > 0 && recovery.evidence_note.empty()) {
    out += std::to_string(unconfirmed) +
           " unconfirmed metadata files skipped: written by commits that may not have landed "
           "(a crash before the catalog swap; or after it but before the commit marker, whose "
           "load then stays `extracted`, not `committed`, in `databox loads`); "
           "--include-unconfirmed takes them\n";
  } else if (unconfirmed > 0) {
    out += std::to_string(unconfirmed) +
           " unconfirmed metadata files skipped (a newest file after a clean loss of the "
           "catalog was committed; after a crash during a commit, `databox loads` shows the "
           "load that wrote it as `extracted`); --include-unconfirmed takes them\n";
  }
  if (!applied) out += "dry run: the catalog was not changed; pass --apply to write it\n";
  return out;
}

nlohmann::json RecoveryJson(const iceberg::WarehouseRecovery& recovery, bool applied,
                            double seconds) {
  nlohmann::json tables = nlohmann::json::array();
  for (const auto& t : recovery.tables) {
    nlohmann::json refused = nlohmann::json::array();
    for (const auto& r : t.refused) {
      refused.push_back({{"metadata_location", r.location},
                         {"reason", r.reason},
                         {"unconfirmed", r.unconfirmed}});
    }
    tables.push_back({{"table", t.table.ToString()},
                      {"action", iceberg::RecoveryActionName(t.action)},
                      {"applied", t.applied},
                      {"metadata_location", t.chosen ? nlohmann::json(*t.chosen) : nullptr},
                      {"confirmed_by", t.confirmed_by},
                      {"snapshot_id", t.snapshot_id ? nlohmann::json(*t.snapshot_id) : nullptr},
                      {"catalog_had", t.catalog_had ? nlohmann::json(*t.catalog_had) : nullptr},
                      {"note", t.note},
                      {"metadata_files", t.metadata_files},
                      {"refused", refused}});
  }
  return {{"applied", applied},
          {"tables", tables},
          {"metadata_files", recovery.metadata_files},
          {"commit_markers", recovery.marker_files},
          {"unreadable_markers", recovery.unreadable_markers},
          {"tables_under", recovery.tables_under},
          {"evidence_note", recovery.evidence_note},
          {"seconds", seconds}};
}

void DeclareRecover(CLI::App& app, Runner& chosen) {
  CLI::App* recover = app.add_subcommand(
      "recover", "Rebuild the catalog's tables from the warehouse's metadata files");
  recover->footer(
      "For every table folder it chooses the newest metadata file that is confirmed committed\n"
      "(a newer file's metadata-log names it, or a commit marker names it) and complete (it\n"
      "parses; its current snapshot's manifest list, manifests, data and delete files exist;\n"
      "metadata-log and sequence numbers agree), and registers it. Every skipped newer file is\n"
      "reported with the reason. Dry run unless --apply.\n"
      "Embedded catalog (type = \"sql\"): the folders under <warehouse>/<catalog name>/; the\n"
      "catalog writes a commit marker into <warehouse>/_databox/commits/ after each commit, so\n"
      "the newest commit is confirmed. A commit killed after its swap but before its marker is\n"
      "skipped as unconfirmed (its load stays `extracted` in `databox loads`).\n"
      "REST catalog (type = \"rest\"): the folders under --tables-under (the server's warehouse\n"
      "location; default: the registry's warehouse location); <table>_<uuid> folders (Nessie)\n"
      "are table <table>. Tables are registered through the server's register endpoint,\n"
      "namespaces created as needed; a server that does not list that endpoint is refused\n"
      "before anything is written. After each REST commit databox writes the same commit\n"
      "marker under the registry's warehouse location (<location>/_databox/commits/); where\n"
      "none is found (tables written before, or storage refused them) each table's newest file\n"
      "is unconfirmed, so --apply is refused without --include-unconfirmed.\n"
      "A table the catalog already holds is left alone; with --roll-forward it moves to the\n"
      "chosen file when that file's metadata-log names the catalog's (after restoring an old\n"
      "backup): the embedded catalog swaps the pointer, a REST catalog drops the table (files\n"
      "kept) and registers the newer file (Nessie keeps no metadata-log: its tables are kept).\n"
      "Exit 1 when a table has no usable metadata file.");
  auto args = std::make_shared<RecoverArgs>();
  recover->add_flag("--from-warehouse", args->from_warehouse,
                    "read the warehouse's metadata files (required)");
  recover->add_flag("--apply", args->options.apply, "write the catalog (default: dry run)");
  recover->add_flag("--include-unconfirmed", args->options.include_unconfirmed,
                    "also take a newest file no commit marker or metadata-log confirms");
  recover->add_flag("--roll-forward", args->options.roll_forward,
                    "move tables the catalog holds forward to the chosen file");
  recover
      ->add_option("--tables-under", args->tables_under,
                   "REST catalog: the folder the server puts table folders in (its "
                   "warehouse location)")
      ->type_name("LOCATION");
  recover->add_flag("--json", args->json, "machine-readable output");
  recover->callback(
      [args, &chosen] { chosen = [a = *args](const GlobalOptions& g) { return Recover(g, a); }; });
}

}  // namespace databox::cli
