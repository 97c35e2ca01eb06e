#include "platform/workspace.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
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

//! Makes the state folder owner-only (0700): it holds raw pages, the catalog and the run history.
//! A folder made by an older databox (0755) is closed here, which also closes everything in it.
Status MakeOwnerOnly(const std::filesystem::path& dir) {
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0) return Ok();  // MakeFolder just reported any problem
  if ((st.st_mode & 077) == 0 || st.st_uid != ::geteuid()) return Ok();
  if (::chmod(dir.c_str(), st.st_mode & 0700) != 0) {
    return MakeError(ErrorKind::kIo, "cannot make the state folder " + dir.string() +
                                         " owner-only (chmod 700): " + std::strerror(errno));
  }
  return Ok();
}

//! With `table_credentials`, the REST catalog reports what each table load vends there, and
//! expiring credentials are renewed by loading the table again.
Result<std::unique_ptr<iceberg::Catalog>> OpenCatalog(
    const registry::ProjectSettings& project, std::shared_ptr<fileio::FileIO> file_io,
    const std::shared_ptr<TableCredentials>& table_credentials) {
  if (project.catalog.type == registry::CatalogType::kRest) {
    DATABOX_ASSIGN_OR_RETURN(auto options,
                             RestCatalogOptionsFromSettings(project.catalog, project.warehouse.s3));
    // Held only by the catalog's listener, so it dies with the catalog: a reload asked after
    // the catalog closed (by someone still holding the storage) is refused, not a dangling call.
    auto catalog_alive = std::make_shared<bool>(true);
    if (table_credentials != nullptr) {
      options.on_credentials =
          [sink = std::weak_ptr<TableCredentials>(table_credentials), catalog_alive](
              const iceberg::TableIdentifier& table, const std::string& location,
              const std::vector<catalog::rest::StorageCredential>& vended) {
            if (auto credentials = sink.lock()) credentials->Vended(table, location, vended);
          };
    }
    // The server writes no evidence into the warehouse that a metadata file was committed:
    // leave the markers the embedded catalog writes, for recovery from the warehouse.
    if (file_io != nullptr) options.on_committed = CommitMarkerWriter(file_io, project);
    DATABOX_ASSIGN_OR_RETURN(auto rest, catalog::rest::RestCatalog::Open(std::move(options)));
    if (table_credentials != nullptr) {
      table_credentials->SetReload(
          [catalog = rest.get(), alive = std::weak_ptr<bool>(catalog_alive)](
              const iceberg::TableIdentifier& table) -> Status {
            if (alive.expired()) {
              return MakeError(ErrorKind::kConfig, "the catalog is closed: cannot load table " +
                                                       table.ToString() + " again");
            }
            DATABOX_ASSIGN_OR_RETURN(auto loaded, catalog->LoadTable(table));
            (void)loaded;
            return Ok();
          });
    }
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
  DATABOX_RETURN_IF_ERROR(MakeOwnerOnly(project.state_dir));
  const bool rest = project.catalog.type == registry::CatalogType::kRest;
  DATABOX_ASSIGN_OR_RETURN(Storage storage, OpenStorage(project.warehouse, rest));
  load::WorkspaceParts parts;
  DATABOX_ASSIGN_OR_RETURN(parts.catalog,
                           OpenCatalog(project, storage.file_io, storage.table_credentials));
  parts.warehouse_wide_access = storage.warehouse_wide_access;
  parts.file_io = std::move(storage.file_io);
  parts.sources = std::make_unique<RegistrySources>(registry);
  parts.duckdb_s3 = std::move(storage.duckdb_s3);
  return std::make_unique<load::Workspace>(registry, std::move(parts));
}

}  // namespace databox::platform
