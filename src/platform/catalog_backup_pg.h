// The REST catalog server's own PostgreSQL database ([project.catalog] backup_database_url and
// backup_database_password): dumped with `pg_dump --format=custom` (one consistent snapshot,
// also while the server commits) and restored with `pg_restore` in one transaction. The
// password reaches the tools only through their environment (platform/pg_client.h).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "common/error.h"
#include "registry/model.h"

namespace databox::platform {

inline constexpr const char* kBackupDumpName = "catalog.pgdump";

//! Dumps the catalog database into `file` (custom format). kConfig when backup_database_url is
//! not set; the classified pg_dump failure otherwise (pg_client.h).
Status DumpCatalogDatabase(const registry::CatalogSettings& catalog,
                           const std::filesystem::path& file);

//! Restores `file` into the catalog database in one transaction. Refuses (kConflict, naming
//! them) when the database already holds a table the archive creates, unless `force`: then
//! those are dropped and recreated (pg_restore --clean --if-exists). Returns the archive's
//! tables (schema.name).
Result<std::vector<std::string>> RestoreCatalogDatabase(const registry::CatalogSettings& catalog,
                                                        const std::filesystem::path& file,
                                                        bool force);

}  // namespace databox::platform
