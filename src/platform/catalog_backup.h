// Backups of the embedded SQL catalog and restores from them (`databox catalog backup` and
// `databox catalog restore`; docs/catalog_recovery.md). A backup is a folder
// catalog-<UTC time>/ holding `catalog.sqlite` (an online copy through SQLite's backup API:
// consistent as of one commit while loads keep committing) and `manifest.json`, which records
// when it was taken, from which catalog, and each table's metadata location in the copy.
// A REST catalog's backup holds its server's PostgreSQL database instead, dumped by pg_dump
// (`catalog.pgdump`, platform/catalog_backup_pg.h), and the tables as the catalog listed them.
#pragma once

#include <filesystem>
#include <functional>
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
  std::string kind = "sql";                        //!< "sql" or "rest"
  std::string source_database;                     //!< the SQLite file, or the PostgreSQL URL
  std::string taken_at;                            //!< UTC, ISO 8601 ("2026-12-01T23:40:05Z")
  std::string catalog_name;                        //!< the JDBC catalog_name the rows belong to
  std::vector<catalog::sql::TablePointer> tables;  //!< as in the copy, sorted by name
  //! rest: why `tables` is empty although the dump was taken (the catalog did not answer)
  std::string tables_note;
};

//! A REST catalog's tables and their metadata locations, as the catalog lists them now.
using TableLister = std::function<Result<std::vector<catalog::sql::TablePointer>>()>;

//! Backs up the registry's catalog into a new folder under `to` (default: [project.catalog]
//! backup_dir), created if missing. SQL: kNotFound when the catalog has no database yet. REST:
//! the pg_dump of backup_database_url (kConfig when unset), then `list_rest_tables` (called
//! after the dump; when it fails the backup is kept and `tables_note` says why). kIo naming
//! the folder when it cannot be created or written.
Result<CatalogBackup> BackupCatalog(const registry::ProjectSettings& project,
                                    const std::optional<std::filesystem::path>& to,
                                    const TableLister& list_rest_tables = {});

//! Reads and checks a backup folder's manifest.json (kNotFound / kData naming the folder).
Result<CatalogBackup> ReadCatalogBackup(const std::filesystem::path& folder);

//! Copies the backup in `folder` into the registry's catalog database (SQL: the SQLite file;
//! REST: pg_restore into backup_database_url). Refuses (kConflict) a catalog that already holds
//! tables (REST: any of the dump's tables) unless `force`; kConfig when the backup belongs to a
//! catalog of another name or kind.
Result<CatalogBackup> RestoreCatalog(const registry::ProjectSettings& project,
                                     const std::filesystem::path& folder, bool force);

}  // namespace databox::platform
