// Backups of the embedded SQL catalog and restores from them (`databox catalog backup` and
// `databox catalog restore`; docs/catalog_recovery.md). A backup is a folder
// catalog-<UTC time>/ holding `catalog.sqlite` (an online copy through SQLite's backup API:
// consistent as of one commit while loads keep committing) and `manifest.json`, which records
// when it was taken, from which catalog, and each table's metadata location in the copy.
// A REST catalog's database lives in its server: backing it up is not supported here.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "catalog/sql/jdbc_store.h"
#include "common/error.h"
#include "registry/model.h"

namespace databox::platform {

inline constexpr const char* kBackupManifestName = "manifest.json";
inline constexpr const char* kBackupDatabaseName = "catalog.sqlite";

//! What a backup folder holds (its manifest.json).
struct CatalogBackup {
  std::filesystem::path folder;
  std::string taken_at;                            //!< UTC, ISO 8601 ("2026-12-01T23:40:05Z")
  std::string catalog_name;                        //!< the JDBC catalog_name the rows belong to
  std::vector<catalog::sql::TablePointer> tables;  //!< as in the copy, sorted by name
};

//! Backs up the registry's SQL catalog into a new folder under `to` (default: [project.catalog]
//! backup_dir), created if missing. kConfig for a REST catalog; kNotFound when the catalog has
//! no database yet; kIo naming the folder when it cannot be created or written.
Result<CatalogBackup> BackupCatalog(const registry::ProjectSettings& project,
                                    const std::optional<std::filesystem::path>& to);

//! Reads and checks a backup folder's manifest.json (kNotFound / kData naming the folder).
Result<CatalogBackup> ReadCatalogBackup(const std::filesystem::path& folder);

//! Copies the backup in `folder` into the registry's SQL catalog database. Refuses (kConflict)
//! a catalog that already holds tables unless `force`; kConfig when the backup belongs to a
//! catalog of another name or the registry's catalog is not type sql.
Result<CatalogBackup> RestoreCatalog(const registry::ProjectSettings& project,
                                     const std::filesystem::path& folder, bool force);

}  // namespace databox::platform
