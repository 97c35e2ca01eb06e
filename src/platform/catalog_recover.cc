#include "platform/catalog_recover.h"

#include <unistd.h>

#include <filesystem>

#include "catalog/sql/sql_catalog.h"
#include "fileio/durable.h"
#include "platform/storage.h"

namespace databox::platform {

Result<catalog::sql::WarehouseRecovery> RecoverCatalog(
    const registry::ProjectSettings& project, const catalog::sql::RecoveryOptions& options) {
  if (project.catalog.type != registry::CatalogType::kSql) {
    return MakeError(ErrorKind::kConfig,
                     "catalog recover is supported for the embedded SQL catalog (type = \"sql\") "
                     "only; registering tables in a REST catalog is not built yet");
  }
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
    auto result = [&]() -> Result<catalog::sql::WarehouseRecovery> {
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

}  // namespace databox::platform
