#include "cli/cmd_catalog_backup.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "catalog/rest/rest_catalog.h"
#include "cli/catalog_tables.h"
#include "cli/cmd_catalog_recover.h"
#include "cli/output.h"
#include "common/exit_code.h"
#include "platform/catalog_backup.h"
#include "platform/catalog_options.h"
#include "platform/catalog_recover.h"
#include "registry/registry.h"

namespace databox::cli {
namespace {

namespace fs = std::filesystem;

ExitCode Fail(std::string_view action, const Error& error) {
  Err("databox catalog " + std::string(action) + ": " + error.message + "\n");
  return error.kind == ErrorKind::kConfig ? ExitCode::kUsage : ExitCode::kRunFailed;
}

//! Every table the REST catalog lists, with the metadata location it serves now.
platform::TableLister RestTableLister(const registry::ProjectSettings& project) {
  return [&project]() -> Result<std::vector<catalog::sql::TablePointer>> {
    DATABOX_ASSIGN_OR_RETURN(auto options, platform::RestCatalogOptionsFromSettings(
                                               project.catalog, project.warehouse.s3));
    options.vended_credentials = false;  // only the pointers are read, never a file
    options.http.retry.max_attempts = std::min(options.http.retry.max_attempts, 2);
    DATABOX_ASSIGN_OR_RETURN(auto catalog, catalog::rest::RestCatalog::Open(std::move(options)));
    DATABOX_ASSIGN_OR_RETURN(auto tables, AllTables(*catalog));
    std::vector<catalog::sql::TablePointer> pointers;
    for (const auto& table : tables) {
      DATABOX_ASSIGN_OR_RETURN(auto loaded, catalog->LoadTable(table));
      pointers.push_back({.table = table, .metadata_location = loaded.metadata_location});
    }
    return pointers;
  };
}

ExitCode Backup(const GlobalOptions& global, const std::optional<std::string>& to) {
  auto loaded = registry::LoadRegistry(global.config_path);
  if (!loaded) return Fail("backup", loaded.error());
  std::optional<fs::path> dir;
  if (to) dir = fs::absolute(*to);
  const auto& catalog = loaded->project.catalog;
  const bool rest = catalog.type == registry::CatalogType::kRest;
  auto backup = platform::BackupCatalog(loaded->project, dir, BackupTableLister(loaded->project));
  if (!backup) return Fail("backup", backup.error());
  const std::string what = rest ? "REST catalog '" + backup->catalog_name + "' (pg_dump of " +
                                      backup->source_database + ", "
                                : "catalog '" + backup->catalog_name + "' (";
  Out("backed up " + what + std::to_string(backup->tables.size()) + " tables) at " +
      backup->taken_at + " into " + backup->folder.string() + "\n");
  if (!backup->tables_note.empty()) {
    Err("databox catalog backup: warning: the dump is complete, but " + backup->tables_note +
        "; the manifest lists no tables\n");
  }
  return ExitCode::kOk;
}

//! After a REST restore: compares what the catalog serves with the backup's manifest and says
//! whether the catalog server must be restarted to serve the restored state.
void VerifyRestRestore(const registry::ProjectSettings& project,
                       const platform::CatalogBackup& backup) {
  const std::string restart =
      "a catalog server that caches table pointers serves the restored state only after a "
      "restart (Iceberg's reference JDBC adapter and Project Nessie with its default settings "
      "read them from the database and need none)";
  if (!backup.tables_note.empty()) {
    Out("the backup lists no tables to verify against (" + backup.tables_note + "); " + restart +
        "; then check with `databox catalog list`\n");
    return;
  }
  auto served = RestTableLister(project)();
  if (!served) {
    Out("the REST catalog did not answer (" + served.error().message + "): " + restart +
        "; once it runs, check with `databox catalog list`\n");
    return;
  }
  std::map<std::string, std::string> now;
  for (const auto& t : *served) now[t.table.ToString()] = t.metadata_location;
  std::vector<std::string> differing;
  for (const auto& t : backup.tables) {
    auto it = now.find(t.table.ToString());
    if (it == now.end() || it->second != t.metadata_location)
      differing.push_back(it == now.end() ? t.table.ToString() + " (missing)" : t.table.ToString());
  }
  if (differing.empty()) {
    Out("verified through the REST catalog: it serves all " + std::to_string(backup.tables.size()) +
        " tables at the backup's metadata locations" +
        (now.size() > backup.tables.size()
             ? " (and " + std::to_string(now.size() - backup.tables.size()) + " more)"
             : std::string()) +
        "\n");
    return;
  }
  std::string names;
  for (size_t i = 0; i < differing.size() && i < 5; ++i) names += (i ? ", " : "") + differing[i];
  if (differing.size() > 5) names += ", ...";
  Err("databox catalog restore: the REST catalog does not serve the backup's state yet for " +
      std::to_string(differing.size()) + " of " + std::to_string(backup.tables.size()) +
      " tables (" + names + "): restart the catalog server (" + restart +
      "), then check with `databox catalog list`; a table committed while the backup was taken "
      "may also differ, because the backup lists its tables after the dump\n");
}

ExitCode Restore(const GlobalOptions& global, const std::string& folder, bool force,
                 bool roll_forward, const std::optional<std::string>& tables_under) {
  auto loaded = registry::LoadRegistry(global.config_path);
  if (!loaded) return Fail("restore", loaded.error());
  const bool rest = loaded->project.catalog.type == registry::CatalogType::kRest;
  if (tables_under && !roll_forward) {
    return Fail("restore", MakeError(ErrorKind::kConfig,
                                     "--tables-under tells --roll-forward where the table "
                                     "folders are; without --roll-forward nothing reads them")
                               .error());
  }
  if (tables_under && !rest) {
    return Fail("restore", MakeError(ErrorKind::kConfig,
                                     "--tables-under is for a REST catalog; the embedded SQL "
                                     "catalog's tables are under <warehouse>/<catalog name>/")
                               .error());
  }
  const auto start = std::chrono::steady_clock::now();
  auto backup = platform::RestoreCatalog(loaded->project, fs::absolute(folder), force);
  if (!backup) return Fail("restore", backup.error());
  if (rest) {
    Out("restored the REST catalog's database " + loaded->project.catalog.backup.database_url +
        " from " + backup->folder.string() + " (taken " + backup->taken_at + ", " +
        std::to_string(backup->tables.size()) + " tables)\n");
    VerifyRestRestore(loaded->project, *backup);
  } else {
    Out("restored catalog '" + backup->catalog_name + "' (" +
        std::to_string(backup->tables.size()) + " tables) as of " + backup->taken_at + " from " +
        backup->folder.string() + "\n");
  }
  if (!roll_forward) return ExitCode::kOk;
  auto recovery = platform::RecoverCatalog(
      loaded->project, {.apply = true, .include_unconfirmed = false, .roll_forward = true},
      tables_under);
  if (!recovery) return Fail("restore", recovery.error());
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  Out("rolled forward from the warehouse:\n" + FormatRecovery(*recovery, true, seconds));
  return ExitCode::kOk;
}

//! What `backup` and `restore` parsed.
struct BackupArgs {
  std::optional<std::string> to;
  std::string from;
  bool force = false;
  bool roll_forward = false;
  std::optional<std::string> tables_under;
};

}  // namespace

platform::TableLister BackupTableLister(const registry::ProjectSettings& project) {
  if (project.catalog.type != registry::CatalogType::kRest) return {};
  return RestTableLister(project);
}

void DeclareBackupAndRestore(CLI::App& app, Runner& chosen) {
  auto args = std::make_shared<BackupArgs>();
  CLI::App* backup =
      app.add_subcommand("backup", "Back up the catalog's database into a new backup folder");
  backup->footer(
      "Writes DIR/catalog-<UTC time>/ with the database and manifest.json (when it was taken,\n"
      "the catalog's name and kind, each table and its metadata file).\n"
      "Embedded catalog (type = \"sql\"): catalog.sqlite, copied through\n"
      "SQLite's online backup API: the copy is the catalog as of one commit, also while\n"
      "refreshes are committing.\n"
      "REST catalog: catalog.pgdump, `pg_dump --format=custom` of the catalog server's\n"
      "PostgreSQL database ([project.catalog] backup_database_url; the password from\n"
      "backup_database_password reaches pg_dump through its environment only). pg_dump is one\n"
      "consistent snapshot, also while refreshes commit. The tables in manifest.json are the\n"
      "ones the REST catalog lists right after the dump. Needs Debian's postgresql-client of\n"
      "the server's major version or newer.\n"
      "Without --to it uses [project.catalog] backup_dir (default <state_dir>/catalog-backups)\n"
      "and keeps the newest backup_keep backups there (default 7).");
  backup->add_option("--to", args->to, "folder to create the backup in")->option_text("DIR");
  backup->callback([args, &chosen] {
    chosen = [to = args->to](const GlobalOptions& g) { return Backup(g, to); };
  });

  CLI::App* restore = app.add_subcommand("restore", "Replace the catalog's database with a backup");
  restore->footer(
      "Embedded catalog: copies BACKUP/catalog.sqlite into the catalog database "
      "([project.catalog]\n"
      "uri), creating it if missing; refuses a catalog that already holds tables unless --force.\n"
      "REST catalog: pg_restore of BACKUP/catalog.pgdump into backup_database_url in one\n"
      "transaction; refuses a database that already holds any of the dump's tables unless\n"
      "--force (then they are dropped and recreated). It then lists the tables through the REST\n"
      "catalog and compares them with the backup; when they differ the server caches table\n"
      "pointers and must be restarted (the reference JDBC adapter and Nessie's defaults do not).\n"
      "The restored catalog points at the metadata files current when the backup was taken;\n"
      "commits made after it are not in it, unless --roll-forward: then every table moves\n"
      "forward to the newest confirmed metadata file in the warehouse that descends from the\n"
      "restored one, and tables created after the backup are registered (as `recover\n"
      "--from-warehouse --roll-forward --apply`; for a REST catalog the table folders are read\n"
      "under --tables-under, default the registry's warehouse location, and a table is moved by\n"
      "dropping it from the catalog, files kept, and registering the newer file).");
  restore->add_option("BACKUP", args->from, "a folder `databox catalog backup` made")->required();
  restore->add_flag("--force", args->force, "replace a catalog that already holds tables");
  restore->add_flag("--roll-forward", args->roll_forward,
                    "then move every table to its newest committed version in the warehouse");
  restore
      ->add_option("--tables-under", args->tables_under,
                   "REST catalog: where the server puts table folders, for --roll-forward")
      ->option_text("LOCATION");
  restore->callback([args, &chosen] {
    chosen = [a = *args](const GlobalOptions& g) {
      return Restore(g, a.from, a.force, a.roll_forward, a.tables_under);
    };
  });
}

}  // namespace databox::cli
