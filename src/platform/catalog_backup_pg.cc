#include "platform/catalog_backup_pg.h"

#include <stdlib.h>

#include <algorithm>
#include <iterator>
#include <system_error>

#include "platform/pg_client.h"

namespace databox::platform {
namespace {

namespace fs = std::filesystem;

//! A private (0700) temporary folder for the tools' output, removed with the object.
class PrivateTempDir {
 public:
  static Result<PrivateTempDir> Make() {
    std::string pattern = (fs::temp_directory_path() / "databox-pg-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) {
      return MakeError(ErrorKind::kIo,
                       "cannot create a temporary folder in " + fs::temp_directory_path().string());
    }
    return PrivateTempDir(pattern);
  }
  PrivateTempDir(PrivateTempDir&& other) noexcept : path_(std::exchange(other.path_, {})) {}
  PrivateTempDir(const PrivateTempDir&) = delete;
  PrivateTempDir& operator=(const PrivateTempDir&) = delete;
  PrivateTempDir& operator=(PrivateTempDir&&) = delete;
  ~PrivateTempDir() {
    std::error_code ec;
    if (!path_.empty()) fs::remove_all(path_, ec);
  }
  const fs::path& path() const { return path_; }

 private:
  explicit PrivateTempDir(fs::path path) : path_(std::move(path)) {}
  fs::path path_;
};

Result<PgDatabase> DatabaseOf(const registry::CatalogSettings& catalog, std::string_view action) {
  if (catalog.backup.database_url.empty()) {
    return MakeError(ErrorKind::kConfig,
                     "catalog " + std::string(action) +
                         " of a REST catalog needs the catalog server's PostgreSQL database: set "
                         "[project.catalog] backup_database_url = "
                         "\"postgresql://user@host:port/db\" (and backup_database_password = "
                         "\"${VAR}\" when it needs a password)");
  }
  return PgDatabase{.url = catalog.backup.database_url,
                    .password = catalog.backup.database_password.Reveal()};
}

}  // namespace

Status DumpCatalogDatabase(const registry::CatalogSettings& catalog, const fs::path& file) {
  DATABOX_ASSIGN_OR_RETURN(PgDatabase database, DatabaseOf(catalog, "backup"));
  DATABOX_ASSIGN_OR_RETURN(PrivateTempDir work, PrivateTempDir::Make());
  const PgClient client(std::move(database), work.path());
  DATABOX_ASSIGN_OR_RETURN(
      std::string output, client.Run("pg_dump",
                                     {"--format=custom", "--no-password", "--lock-wait-timeout=60s",
                                      "--file=" + file.string()},
                                     "back up"));
  (void)output;
  return Ok();
}

Result<std::vector<std::string>> RestoreCatalogDatabase(const registry::CatalogSettings& catalog,
                                                        const fs::path& file, bool force) {
  DATABOX_ASSIGN_OR_RETURN(PgDatabase database, DatabaseOf(catalog, "restore"));
  DATABOX_ASSIGN_OR_RETURN(PrivateTempDir work, PrivateTempDir::Make());
  const PgClient client(std::move(database), work.path());
  DATABOX_ASSIGN_OR_RETURN(std::string listing, client.Run("pg_restore", {"--list", file.string()},
                                                           "read the backup for", false));
  const std::vector<std::string> archived = ArchiveTables(listing);
  if (archived.empty()) {
    return MakeError(ErrorKind::kData, file.string() +
                                           " creates no table: it is not a dump of "
                                           "a catalog server's database");
  }
  DATABOX_ASSIGN_OR_RETURN(std::vector<std::string> present, client.UserTables());
  std::vector<std::string> clash;
  std::ranges::set_intersection(archived, present, std::back_inserter(clash));
  if (!clash.empty() && !force) {
    std::string names;
    for (const auto& t : clash) names += (names.empty() ? "" : ", ") + t;
    return MakeError(ErrorKind::kConflict,
                     "the catalog database " + client.url() + " is not empty: it already holds " +
                         std::to_string(clash.size()) + " of the backup's tables (" + names +
                         "); restoring replaces them and everything the catalog server committed "
                         "since: pass --force (stop the catalog server first)");
  }
  std::vector<std::string> args = {"--no-password", "--single-transaction", "--exit-on-error"};
  if (!clash.empty()) {
    args.insert(args.end(), {"--clean", "--if-exists"});
  }
  args.push_back(file.string());
  DATABOX_ASSIGN_OR_RETURN(std::string output, client.Run("pg_restore", args, "restore"));
  (void)output;
  return archived;
}

}  // namespace databox::platform
