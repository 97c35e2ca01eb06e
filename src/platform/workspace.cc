#include "platform/workspace.h"

#include <string>

#include "catalog/rest/rest_catalog.h"
#include "catalog/sql/sql_catalog.h"
#include "fileio/durable.h"
#include "platform/catalog_options.h"
#include "platform/registry_sources.h"
#include "platform/storage.h"

namespace databox::platform {
namespace {

//! Creates `dir` durably (a crash cannot lose it once a load has written state in it).
Status MakeFolder(const std::filesystem::path& dir, std::string_view what) {
  Status made = fileio::CreateFoldersDurably(dir);
  if (!made)
    return std::unexpected(made.error().WithContext("the " + std::string(what) + " folder"));
  return Ok();
}

Result<std::unique_ptr<iceberg::Catalog>> OpenCatalog(const registry::ProjectSettings& project,
                                                      std::shared_ptr<fileio::FileIO> file_io) {
  if (project.catalog.type == registry::CatalogType::kRest) {
    DATABOX_ASSIGN_OR_RETURN(auto options, RestCatalogOptionsFromSettings(project.catalog));
    DATABOX_ASSIGN_OR_RETURN(auto rest, catalog::rest::RestCatalog::Open(std::move(options)));
    return std::unique_ptr<iceberg::Catalog>(std::move(rest));
  }
  DATABOX_ASSIGN_OR_RETURN(
      auto sql, catalog::sql::SqlCatalog::Open(SqlCatalogOptionsFromSettings(project), file_io));
  return std::unique_ptr<iceberg::Catalog>(std::move(sql));
}

}  // namespace

Result<std::unique_ptr<load::Workspace>> OpenWorkspace(const registry::Registry& registry) {
  const registry::ProjectSettings& project = registry.project;
  DATABOX_RETURN_IF_ERROR(MakeFolder(project.state_dir, "state"));
  DATABOX_ASSIGN_OR_RETURN(Storage storage, OpenStorage(project.warehouse));
  load::WorkspaceParts parts;
  DATABOX_ASSIGN_OR_RETURN(parts.catalog, OpenCatalog(project, storage.file_io));
  parts.file_io = std::move(storage.file_io);
  parts.sources = std::make_unique<RegistrySources>(registry);
  parts.duckdb_s3 = std::move(storage.duckdb_s3);
  return std::make_unique<load::Workspace>(registry, std::move(parts));
}

}  // namespace databox::platform
