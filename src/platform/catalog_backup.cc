#include "platform/catalog_backup.h"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <system_error>

#include "catalog/sql/sql_catalog.h"
#include "catalog/sql/sqlite_backup.h"
#include "fileio/durable.h"
#include "platform/catalog_backup_pg.h"

namespace databox::platform {
namespace {

namespace fs = std::filesystem;
constexpr int kManifestFormat = 1;
constexpr std::string_view kFolderPrefix = "catalog-";
constexpr std::string_view kPartialSuffix = ".partial";

std::string UtcStamp(std::time_t now, const char* format) {
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof(text), format, &utc);
  return text;
}

bool IsRest(const registry::ProjectSettings& project) {
  return project.catalog.type == registry::CatalogType::kRest;
}

//! The file in a backup folder that holds the database, per kind.
const char* DatabaseFileOf(std::string_view kind) {
  return kind == "rest" ? kBackupDumpName : kBackupDatabaseName;
}

//! A folder name under `parent` that does not exist yet: catalog-<stamp>[-N].
fs::path FreshFolder(const fs::path& parent, const std::string& stamp) {
  fs::path folder = parent / (std::string(kFolderPrefix) + stamp);
  std::error_code ec;
  for (int n = 2;
       fs::exists(folder, ec) || fs::exists(folder.string() + std::string(kPartialSuffix), ec);
       ++n) {
    folder = parent / (std::string(kFolderPrefix) + stamp + "-" + std::to_string(n));
  }
  return folder;
}

std::string ManifestJson(const CatalogBackup& backup) {
  nlohmann::json tables = nlohmann::json::array();
  for (const auto& t : backup.tables) {
    tables.push_back({{"table", t.table.ToString()}, {"metadata_location", t.metadata_location}});
  }
  nlohmann::json doc = {{"format", kManifestFormat},
                        {"kind", backup.kind},
                        {"taken_at", backup.taken_at},
                        {"catalog_name", backup.catalog_name},
                        {"source_database", backup.source_database},
                        {"database_file", DatabaseFileOf(backup.kind)},
                        {"tables", tables}};
  if (backup.kind == "rest") {
    doc["tables_listed"] =
        backup.tables_note.empty()
            ? "through the REST catalog right after pg_dump finished: a commit made while the "
              "dump ran may be listed although the dump's snapshot predates it"
            : backup.tables_note;
  }
  return doc.dump(2) + "\n";
}

//! Fills `partial` with the catalog's database and `backup`'s tables.
Status CopySqlCatalog(const fs::path& partial, CatalogBackup& backup) {
  const catalog::sql::SqlCatalogOptions defaults;
  const std::string copy = (partial / kBackupDatabaseName).string();
  DATABOX_RETURN_IF_ERROR(
      catalog::sql::BackupSqliteDatabase(backup.source_database, copy, defaults.busy_timeout_ms));
  // The table list comes from the copy, so the manifest describes exactly what was saved.
  DATABOX_ASSIGN_OR_RETURN(auto store, catalog::sql::JdbcStore::Open(copy, backup.catalog_name,
                                                                     defaults.busy_timeout_ms));
  DATABOX_ASSIGN_OR_RETURN(backup.tables, store->AllTables());
  return Ok();
}

//! Dumps the REST catalog's database into `partial`, then lists its tables through the catalog.
Status DumpRestCatalog(const registry::CatalogSettings& catalog, const fs::path& partial,
                       const TableLister& list_tables, CatalogBackup& backup) {
  DATABOX_RETURN_IF_ERROR(DumpCatalogDatabase(catalog, partial / kBackupDumpName));
  if (!list_tables) {
    backup.tables_note = "not listed";
    return Ok();
  }
  auto listed = list_tables();
  if (listed) {
    backup.tables = std::move(*listed);
    std::ranges::sort(backup.tables, {}, [](const auto& t) { return t.table.ToString(); });
  } else {
    backup.tables_note = "the REST catalog did not list its tables: " + listed.error().message;
  }
  return Ok();
}

//! Removes the oldest finished backups in `dir` beyond the newest `keep`.
Status PruneBackups(const fs::path& dir, int keep) {
  std::vector<fs::path> folders;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (entry.is_directory() && name.starts_with(kFolderPrefix) &&
        !name.ends_with(kPartialSuffix) && fs::exists(entry.path() / kBackupManifestName)) {
      folders.push_back(entry.path());
    }
  }
  if (ec)
    return MakeError(ErrorKind::kIo,
                     "cannot list backups in " + dir.string() + ": " + ec.message());
  std::ranges::sort(folders);  // names carry the UTC time, so this is oldest first
  for (size_t i = 0; i + keep < folders.size(); ++i) {
    fs::remove_all(folders[i], ec);
    if (ec) {
      return MakeError(ErrorKind::kIo,
                       "cannot remove old backup " + folders[i].string() + ": " + ec.message());
    }
  }
  return Ok();
}

}  // namespace

Result<CatalogBackup> BackupCatalog(const registry::ProjectSettings& project,
                                    const std::optional<fs::path>& to,
                                    const TableLister& list_rest_tables) {
  CatalogBackup backup;
  backup.kind = IsRest(project) ? "rest" : "sql";
  backup.catalog_name = project.catalog.name;
  std::error_code ec;
  if (IsRest(project)) {
    backup.source_database = project.catalog.backup.database_url;
  } else {
    DATABOX_ASSIGN_OR_RETURN(backup.source_database,
                             catalog::sql::SqlitePathOf(project.catalog.uri));
    if (!fs::is_regular_file(backup.source_database, ec)) {
      return MakeError(ErrorKind::kNotFound, "there is no catalog yet: " + backup.source_database +
                                                 " does not exist (run `databox refresh` first, "
                                                 "or check [project.catalog] uri)");
    }
  }
  const fs::path parent = to.value_or(project.catalog.backup.dir);
  if (auto made = fileio::CreateFoldersDurably(parent); !made) {
    return std::unexpected(made.error().WithContext("creating the backup folder " +
                                                    parent.string() + " (choose a writable --to)"));
  }
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  backup.folder = FreshFolder(parent, UtcStamp(now, "%Y%m%dT%H%M%SZ"));
  backup.taken_at = UtcStamp(now, "%Y-%m-%dT%H:%M:%SZ");
  // Written under a .partial name and renamed when complete: a folder without the suffix is
  // always a whole backup.
  const fs::path partial = backup.folder.string() + std::string(kPartialSuffix);
  if (!fs::create_directory(partial, ec)) {
    return MakeError(ErrorKind::kIo, "cannot create backup folder " + partial.string() + ": " +
                                         (ec ? ec.message() : "it exists") +
                                         " (choose a writable --to)");
  }
  Status filled = IsRest(project)
                      ? DumpRestCatalog(project.catalog, partial, list_rest_tables, backup)
                      : CopySqlCatalog(partial, backup);
  if (filled)
    filled = fileio::WriteFileDurably(partial / kBackupManifestName, ManifestJson(backup));
  if (filled) filled = fileio::RenameDurably(partial, backup.folder);
  if (!filled) {
    fs::remove_all(partial, ec);
    return std::unexpected(filled.error());
  }
  if (!to) DATABOX_RETURN_IF_ERROR(PruneBackups(parent, project.catalog.backup.keep));
  return backup;
}

Result<CatalogBackup> ReadCatalogBackup(const fs::path& folder) {
  const fs::path manifest_path = folder / kBackupManifestName;
  std::ifstream in(manifest_path);
  if (!in) {
    return MakeError(ErrorKind::kNotFound, "no catalog backup at " + folder.string() + ": " +
                                               manifest_path.string() +
                                               " is missing (pass a folder `databox catalog "
                                               "backup` made)");
  }
  std::stringstream text;
  text << in.rdbuf();
  const auto doc = nlohmann::json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
  auto bad = [&](const std::string& why) {
    return MakeError(ErrorKind::kData, "catalog backup " + folder.string() + ": " + why);
  };
  if (!doc.is_object() || doc.value("format", 0) != kManifestFormat) {
    return bad(std::string(kBackupManifestName) + " is not a format-1 backup manifest");
  }
  CatalogBackup backup;
  backup.kind = doc.value("kind", "");
  if (backup.kind != "sql" && backup.kind != "rest") {
    return bad("its kind is neither \"sql\" nor \"rest\"");
  }
  backup.folder = folder;
  backup.source_database = doc.value("source_database", "");
  backup.taken_at = doc.value("taken_at", "");
  backup.catalog_name = doc.value("catalog_name", "");
  const auto tables = doc.find("tables");
  if (tables == doc.end() || !tables->is_array()) return bad("its manifest lists no tables");
  for (const auto& t : *tables) {
    if (!t.is_object()) return bad("its manifest has a malformed table entry");
    auto id = iceberg::ParseTableIdentifier(t.value("table", ""));
    if (!id) return bad(id.error().message);
    backup.tables.push_back({.table = *id, .metadata_location = t.value("metadata_location", "")});
  }
  if (!fs::is_regular_file(folder / DatabaseFileOf(backup.kind))) {
    return bad(std::string(DatabaseFileOf(backup.kind)) + " is missing");
  }
  return backup;
}

Result<CatalogBackup> RestoreCatalog(const registry::ProjectSettings& project,
                                     const fs::path& folder, bool force) {
  DATABOX_ASSIGN_OR_RETURN(CatalogBackup backup, ReadCatalogBackup(folder));
  const std::string kind = IsRest(project) ? "rest" : "sql";
  if (backup.kind != kind) {
    return MakeError(ErrorKind::kConfig, "backup " + folder.string() + " is of a " + backup.kind +
                                             " catalog, the registry's catalog is type = \"" +
                                             kind + "\"; restore it into a project of that kind");
  }
  if (backup.catalog_name != project.catalog.name) {
    return MakeError(ErrorKind::kConfig, "backup " + folder.string() + " is of catalog '" +
                                             backup.catalog_name + "', the registry's is '" +
                                             project.catalog.name +
                                             "'; restore it into a project of that name");
  }
  if (IsRest(project)) {
    DATABOX_ASSIGN_OR_RETURN(
        auto restored, RestoreCatalogDatabase(project.catalog, folder / kBackupDumpName, force));
    (void)restored;
    return backup;
  }
  DATABOX_ASSIGN_OR_RETURN(const std::string database,
                           catalog::sql::SqlitePathOf(project.catalog.uri));
  const catalog::sql::SqlCatalogOptions defaults;
  std::error_code ec;
  if (fs::exists(database, ec)) {
    DATABOX_ASSIGN_OR_RETURN(
        auto store,
        catalog::sql::JdbcStore::Open(database, project.catalog.name, defaults.busy_timeout_ms));
    DATABOX_ASSIGN_OR_RETURN(auto tables, store->AllTables());
    if (!tables.empty() && !force) {
      return MakeError(ErrorKind::kConflict,
                       "catalog " + database + " is not empty (" + std::to_string(tables.size()) +
                           " tables); restoring would replace them: pass --force, or move the "
                           "file away first");
    }
  } else {
    DATABOX_RETURN_IF_ERROR(fileio::CreateFoldersDurably(fs::path(database).parent_path()));
  }
  DATABOX_RETURN_IF_ERROR(catalog::sql::RestoreSqliteDatabase(
      (folder / kBackupDatabaseName).string(), database, defaults.busy_timeout_ms));
  return backup;
}

}  // namespace databox::platform
