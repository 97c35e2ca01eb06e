// SqlCatalog: the embedded default catalog. Table pointers live in a SQLite database laid out
// as the Iceberg JDBC catalog (jdbc_store.h), so pyiceberg's SqlCatalog and Iceberg Java's
// JdbcCatalog read and write the same tables; metadata files go through FileIO.
//
// A commit: load the current metadata, check the requirements, apply the updates, write
// <metadata folder>/<version>-<uuid>.metadata.json with FileIO::WriteNew, then swap the
// table's metadata_location only if it is still the one the commit started from. A lost
// race is kConflict (reload and retry). A file written by a commit that then failed is left
// in place: it is unreferenced, and removing orphans is maintenance's job.
//
// Metadata files are immutable (WriteNew never overwrites, and every name holds a fresh UUID),
// so the catalog keeps the last few it parsed or wrote keyed by location: a load or commit
// whose table still points at a cached file skips reading and parsing it. The location itself
// always comes from the database, so other processes' commits are seen.
//
// After every swap (and create or register) the catalog writes a commit marker into the
// warehouse (commit_marker.h) naming the tables' new metadata files: what recovery from the
// warehouse alone needs to tell a committed newest file from a crashed commit's.
#pragma once

#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "catalog/sql/jdbc_store.h"
#include "fileio/file_io.h"
#include "iceberg/commit/catalog.h"

namespace databox::catalog::sql {

struct SqlCatalogOptions {
  std::string name;       //!< catalog_name in the database
  std::string uri;        //!< "sqlite:///abs/path.db" or an absolute path to the database file
  std::string warehouse;  //!< root location of new tables ("file:///…", "/…" or "s3://…")
  int busy_timeout_ms = 30000;  //!< how long a writer waits for another process's lock
};

//! The SQLite file a catalog uri names ("sqlite:///abs/path.db" or "/abs/path.db"); kConfig for
//! anything else.
Result<std::string> SqlitePathOf(std::string_view uri);

class SqlCatalog final : public iceberg::Catalog {
 public:
  //! Opens (and initialises if new) the catalog database.
  static Result<std::unique_ptr<SqlCatalog>> Open(SqlCatalogOptions options,
                                                  std::shared_ptr<fileio::FileIO> io);

  //! <warehouse>/<catalog name>/<namespace levels>/<table>: catalogs that share a warehouse
  //! (several names in one database, or several databases) never share a table folder.
  std::string DefaultTableLocation(const iceberg::TableIdentifier& table) const;

  std::string_view Name() const override { return options_.name; }
  //! True below <warehouse>/<catalog name>/, where only this catalog puts tables.
  bool TableFoldersAreItsOwn(std::string_view table_location) const override;
  Status CreateNamespace(const iceberg::Namespace& ns,
                         const iceberg::Properties& properties) override;
  Result<std::vector<iceberg::Namespace>> ListNamespaces(const iceberg::Namespace& parent) override;
  Result<bool> NamespaceExists(const iceberg::Namespace& ns) override;
  Result<iceberg::Properties> LoadNamespaceProperties(const iceberg::Namespace& ns) override;
  Status UpdateNamespaceProperties(const iceberg::Namespace& ns,
                                   std::span<const std::string> removals,
                                   const iceberg::Properties& updates) override;
  Status DropNamespace(const iceberg::Namespace& ns) override;
  Result<std::vector<iceberg::TableIdentifier>> ListTables(const iceberg::Namespace& ns) override;
  Result<bool> TableExists(const iceberg::TableIdentifier& table) override;
  Result<iceberg::LoadedTable> LoadTable(const iceberg::TableIdentifier& table) override;
  Result<iceberg::LoadedTable> CreateTable(const iceberg::TableIdentifier& table,
                                           const iceberg::Schema& schema,
                                           const iceberg::PartitionSpec& spec,
                                           const iceberg::SortOrder& sort_order,
                                           const iceberg::Properties& properties,
                                           std::optional<std::string> location) override;
  Result<iceberg::LoadedTable> CommitTable(const iceberg::TableCommit& commit) override;
  Result<std::vector<iceberg::LoadedTable>> CommitTransaction(
      std::span<const iceberg::TableCommit> commits) override;
  Status DropTable(const iceberg::TableIdentifier& table) override;
  Status RenameTable(const iceberg::TableIdentifier& from,
                     const iceberg::TableIdentifier& to) override;
  Result<iceberg::LoadedTable> RegisterTable(const iceberg::TableIdentifier& table,
                                             std::string_view metadata_location) override;
  //! NewTableMetadata at DefaultTableLocation(table); nothing is written.
  Result<iceberg::TableMetadata> PrepareCreateTable(const iceberg::TableIdentifier& table,
                                                    const iceberg::Schema& schema,
                                                    const iceberg::PartitionSpec& spec,
                                                    const iceberg::SortOrder& sort_order,
                                                    const iceberg::Properties& properties) override;
  //! True: one SQLite transaction swaps every pointer, creates included.
  bool TransactionsCreateTables() const override { return true; }

 private:
  //! <warehouse>/<catalog name>: the folder only this catalog puts tables in.
  std::string CatalogFolder() const;
  //! A commit whose metadata file is written and which only awaits its swap.
  struct Staged {
    LocationSwap swap;
    iceberg::LoadedTable result;
  };

  SqlCatalog(SqlCatalogOptions options, std::shared_ptr<fileio::FileIO> io,
             std::unique_ptr<JdbcStore> store)
      : options_(std::move(options)), io_(std::move(io)), store_(std::move(store)) {}

  //! The table's metadata location, or nullopt if it does not exist.
  Result<std::optional<std::string>> Locate(const iceberg::TableIdentifier& table);
  //! Reads and parses a metadata file (or takes it from the cache).
  Result<std::shared_ptr<const iceberg::TableMetadata>> ReadMetadata(
      const iceberg::TableIdentifier& table, const std::string& location);
  //! kNotFound unless the namespace exists.
  Status RequireNamespace(const iceberg::Namespace& ns);
  //! Loads, checks, applies and writes the new metadata file of one commit.
  Result<Staged> Stage(const iceberg::TableCommit& commit);

  //! Writes the commit marker (commit_marker.h) of swaps that landed; best effort.
  void MarkCommitted(const std::vector<LocationSwap>& swaps);

  //! Remembers `metadata` as the content of the file at `location` (see the file comment).
  void Remember(const std::string& location,
                std::shared_ptr<const iceberg::TableMetadata> metadata);

  //! Metadata files kept parsed: enough for the tables one load commits together.
  static constexpr size_t kCachedMetadataFiles = 16;

  SqlCatalogOptions options_;
  std::shared_ptr<fileio::FileIO> io_;
  std::mutex cache_mutex_;  //!< guards cache_
  //! (location, parsed content) of recently read or written metadata files, newest last.
  std::deque<std::pair<std::string, std::shared_ptr<const iceberg::TableMetadata>>> cache_;
  std::mutex store_mutex_;            //!< serializes use of the one database connection
  std::unique_ptr<JdbcStore> store_;  //!< guarded by store_mutex_
};

}  // namespace databox::catalog::sql
