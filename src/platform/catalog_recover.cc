#include "platform/catalog_recover.h"

#include <unistd.h>

#include <filesystem>

#include "catalog/rest/rest_catalog.h"
#include "catalog/sql/sql_catalog.h"
#include "catalog/sql/warehouse_recovery.h"
#include "fileio/durable.h"
#include "iceberg/commit/commit_marker.h"
#include "iceberg/recovery/catalog_recovery_target.h"
#include "platform/catalog_options.h"
#include "platform/storage.h"

namespace databox::platform {
namespace {

Result<iceberg::WarehouseRecovery> RecoverSql(const registry::ProjectSettings& project,
                                              const iceberg::RecoveryOptions& options) {
  DATABOX_ASSIGN_OR_RETURN(std::string database, catalog::sql::SqlitePathOf(project.catalog.uri));
  DATABOX_ASSIGN_OR_RETURN(Storage storage, OpenStorage(project.warehouse));
  if (options.apply) {
    DATABOX_RETURN_IF_ERROR(
        fileio::CreateFoldersDurably(std::filesystem::path(database).parent_path()));
  } else if (!std::filesystem::exists(database)) {
    // A dry run writes nothing, not even an empty catalog: compare against no tables.
    const std::filesystem::path scratch =
        std::filesystem::temp_directory_path() / ("databox-recover-" + std::to_string(getpid()));
    std::filesystem::create_directories(scratch);
    auto result = [&]() -> Result<iceberg::WarehouseRecovery> {
      DATABOX_ASSIGN_OR_RETURN(
          auto store,
          catalog::sql::JdbcStore::Open((scratch / "empty.sqlite").string(), project.catalog.name,
                                        catalog::sql::SqlCatalogOptions{}.busy_timeout_ms));
      return catalog::sql::RecoverFromWarehouse(*store, *storage.file_io,
                                                project.warehouse.location, options);
    }();
    std::error_code ec;
    std::filesystem::remove_all(scratch, ec);
    return result;
  }
  DATABOX_ASSIGN_OR_RETURN(
      auto store, catalog::sql::JdbcStore::Open(database, project.catalog.name,
                                                catalog::sql::SqlCatalogOptions{}.busy_timeout_ms));
  return catalog::sql::RecoverFromWarehouse(*store, *storage.file_io, project.warehouse.location,
                                            options);
}

Result<iceberg::WarehouseRecovery> RecoverRest(const registry::ProjectSettings& project,
                                               const iceberg::RecoveryOptions& options,
                                               const std::string& tables_under) {
  DATABOX_ASSIGN_OR_RETURN(auto rest_options,
                           RestCatalogOptionsFromSettings(project.catalog, project.warehouse.s3));
  rest_options.vended_credentials = false;  // files are read with the registry's storage
  DATABOX_ASSIGN_OR_RETURN(Storage storage, OpenStorage(project.warehouse));
  // What recovery registers is committed now: marked so, like any commit.
  rest_options.on_committed = CommitMarkerWriter(storage.file_io, project);
  DATABOX_ASSIGN_OR_RETURN(auto catalog, catalog::rest::RestCatalog::Open(std::move(rest_options)));
  if (!catalog->SupportsEndpoint(catalog::rest::RestCatalog::kRegisterEndpoint)) {
    return MakeError(ErrorKind::kConfig,
                     "the REST catalog at " + project.catalog.uri +
                         " has no register endpoint (its /v1/config lists the endpoints it "
                         "serves, and `" +
                         std::string(catalog::rest::RestCatalog::kRegisterEndpoint) +
                         "` is not among them): tables cannot be recovered into it; nothing "
                         "was written");
  }
  // Databox leaves its commit markers under the registry's warehouse location, whichever
  // server wrote the tables (platform/workspace.cc).
  DATABOX_ASSIGN_OR_RETURN(iceberg::CommitMarkers markers,
                           iceberg::ReadCommitMarkers(*storage.file_io, project.warehouse.location,
                                                      project.catalog.name));
  if (markers.files == 0 && options.apply && !options.include_unconfirmed) {
    // Without markers no newest file is confirmed: applying would register every table one
    // commit behind its newest (or leave it out), a silent loss of the last commit.
    return MakeError(
        ErrorKind::kConfig,
        "no commit markers under " +
            iceberg::CommitMarkerFolder(project.warehouse.location, project.catalog.name) +
            ", so no table's newest metadata file is confirmed, and --apply would "
            "register tables one commit behind (or not at all). Read the dry "
            "run's report, then apply with --include-unconfirmed; nothing was "
            "written");
  }
  DATABOX_ASSIGN_OR_RETURN(
      auto folders,
      iceberg::FindTableFolders(*storage.file_io, tables_under,
                                {.uuid_suffixed_folders = true, .names = &catalog->table_names()}));
  iceberg::CatalogRecoveryTarget target(*catalog);
  DATABOX_ASSIGN_OR_RETURN(
      iceberg::WarehouseRecovery result,
      iceberg::RecoverTables(target, *storage.file_io, folders, markers.committed, options));
  result.tables_under = tables_under;
  result.marker_files = markers.files;
  result.unreadable_markers = markers.unreadable;
  if (markers.files == 0) {
    result.evidence_note =
        "no commit markers under " +
        iceberg::CommitMarkerFolder(project.warehouse.location, project.catalog.name) +
        " (tables written before Databox marked REST commits, or storage refused the "
        "markers): a table's newest metadata file is confirmed only by a later file's "
        "metadata-log, so it is skipped as unconfirmed unless --include-unconfirmed";
  }
  return result;
}

}  // namespace

Result<iceberg::WarehouseRecovery> RecoverCatalog(const registry::ProjectSettings& project,
                                                  const iceberg::RecoveryOptions& options,
                                                  const std::optional<std::string>& tables_under) {
  if (project.catalog.type == registry::CatalogType::kRest) {
    return RecoverRest(project, options, tables_under.value_or(project.warehouse.location));
  }
  if (tables_under) {
    return MakeError(ErrorKind::kConfig,
                     "--tables-under is for a REST catalog; the embedded SQL catalog's tables are "
                     "under <warehouse>/<catalog name>/");
  }
  return RecoverSql(project, options);
}

}  // namespace databox::platform
