// Catalog: where table names meet metadata files. The loader commits through this
// interface; SqlCatalog (catalog/sql) and the REST catalog (catalog/rest) implement it, as
// InMemoryCatalog (iceberg/commit/in_memory_catalog.h) does for the iceberg module's own tests. The
// interface sits with the Iceberg model so that the model never includes an implementation.
//
// Commits follow the REST spec's requirement/update model: the catalog checks the
// requirements against the current metadata and applies the updates atomically. A commit
// that loses a race fails with ErrorKind::kConflict: the caller reloads, re-plans and retries.
#pragma once

#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/error.h"
#include "iceberg/metadata/table_metadata.h"
#include "iceberg/metadata/table_requirement.h"
#include "iceberg/metadata/table_update.h"
#include "iceberg/spec/partition_spec.h"
#include "iceberg/spec/schema.h"
#include "iceberg/spec/sort_order.h"
#include "iceberg/spec/table_identifier.h"
#include "iceberg/spec/table_names.h"

namespace databox::iceberg {

using Properties = std::map<std::string, std::string>;

//! A table as the catalog currently points at it.
struct LoadedTable {
  std::string metadata_location;  //!< the metadata file the catalog points at
  TableMetadata metadata;         //!< its parsed content
};

//! One table's part of a commit.
struct TableCommit {
  TableIdentifier identifier;
  std::vector<TableRequirement> requirements;  //!< AssertCreate allows a missing table
  std::vector<TableUpdate> updates;
};

class Catalog {
 public:
  virtual ~Catalog() = default;

  //! The catalog's name (the JDBC catalog_name, the REST warehouse).
  virtual std::string_view Name() const = 0;

  //! Creates a namespace; kAlreadyExists if it exists.
  virtual Status CreateNamespace(const Namespace& ns, const Properties& properties) = 0;
  //! The direct children of `parent` (top-level namespaces for an empty parent), sorted.
  virtual Result<std::vector<Namespace>> ListNamespaces(const Namespace& parent) = 0;
  virtual Result<bool> NamespaceExists(const Namespace& ns) = 0;
  //! kNotFound if the namespace does not exist.
  virtual Result<Properties> LoadNamespaceProperties(const Namespace& ns) = 0;
  //! Removes then sets properties; kNotFound if the namespace does not exist.
  virtual Status UpdateNamespaceProperties(const Namespace& ns,
                                           std::span<const std::string> removals,
                                           const Properties& updates) = 0;
  //! kNotFound if absent; kConflict if it still holds tables or child namespaces.
  virtual Status DropNamespace(const Namespace& ns) = 0;

  //! Tables directly in `ns`, sorted; kNotFound if the namespace does not exist.
  virtual Result<std::vector<TableIdentifier>> ListTables(const Namespace& ns) = 0;
  virtual Result<bool> TableExists(const TableIdentifier& table) = 0;
  //! kNotFound if the table does not exist.
  virtual Result<LoadedTable> LoadTable(const TableIdentifier& table) = 0;
  //! Creates an empty table (fresh field ids, see NewTableMetadata) at `location`,
  //! or at the catalog's default location when none is given. kAlreadyExists if the table
  //! exists; kNotFound if the namespace does not.
  virtual Result<LoadedTable> CreateTable(const TableIdentifier& table, const Schema& schema,
                                          const PartitionSpec& spec, const SortOrder& sort_order,
                                          const Properties& properties,
                                          std::optional<std::string> location) = 0;
  //! Commits one table. With an AssertCreate requirement the table is created by the commit
  //! (schema, data and all in one step). kConflict when a requirement fails or a concurrent
  //! commit won; the new metadata otherwise.
  virtual Result<LoadedTable> CommitTable(const TableCommit& commit) = 0;
  //! Commits several tables atomically: all land or none. Results are in input order.
  virtual Result<std::vector<LoadedTable>> CommitTransaction(
      std::span<const TableCommit> commits) = 0;
  //! Forgets the table (its files stay); kNotFound if absent.
  virtual Status DropTable(const TableIdentifier& table) = 0;
  //! kNotFound if `from` or the target namespace is absent; kAlreadyExists if `to` exists.
  virtual Status RenameTable(const TableIdentifier& from, const TableIdentifier& to) = 0;
  //! Adds a table whose metadata file already exists; kAlreadyExists if the name is taken.
  virtual Result<LoadedTable> RegisterTable(const TableIdentifier& table,
                                            std::string_view metadata_location) = 0;

  // What differs between catalogs when a writer creates a table together with its first data.

  //! The metadata a new table starts from (fresh field ids, the location the catalog chooses)
  //! without creating it: data files may be written under its location first, then a commit
  //! with AssertCreate, CreateTableUpdates(metadata) and the first snapshot creates the table
  //! with its data in one step. A REST catalog asks the server (stage-create); the others use
  //! their default location (the SQL catalog: <warehouse>/<catalog name>/<namespace>/<table>).
  virtual Result<TableMetadata> PrepareCreateTable(const TableIdentifier& table,
                                                   const Schema& schema, const PartitionSpec& spec,
                                                   const SortOrder& sort_order,
                                                   const Properties& properties) = 0;
  //! Whether CommitTransaction accepts commits that create their table (AssertCreate). When
  //! false, a writer commits each new table alone (CommitTable) and only changes to existing
  //! tables together. It may turn false once, when the catalog learns that its server refuses
  //! them (a refusal that applied nothing); it never turns true again.
  virtual bool TransactionsCreateTables() const = 0;
  //! True when no other catalog can have a table in the folders of `table_location`: the
  //! catalog put it in a folder only it uses. Another table-uuid's metadata there is then a
  //! leftover of this catalog's own interrupted create, an ordinary orphan; otherwise it may be
  //! another catalog's live table and maintenance keeps it (iceberg/commit/maintenance.h).
  virtual bool TableFoldersAreItsOwn(std::string_view table_location) const {
    (void)table_location;
    return false;
  }
  //! True when the catalog keeps each table's history itself and can serve earlier versions
  //! that the current metadata no longer lists (Nessie: every commit is a version of the
  //! catalog; a table's metadata holds only its current snapshot). A file only such a version
  //! references is then not an orphan (iceberg/commit/maintenance.h).
  virtual bool KeepsHistoryOutsideMetadata() const { return false; }
  //! The names the catalog's server knows tables by (iceberg/spec/table_names.h): the identity but
  //! for a REST catalog whose server refuses names starting with '_'. Every method of this
  //! interface takes and returns databox's names; SQL that names a table on the server itself
  //! (an attached catalog, Trino) and names read from the server's table folders go through it.
  virtual const TableNames& table_names() const {
    static const TableNames kIdentity;
    return kIdentity;
  }
};

}  // namespace databox::iceberg
