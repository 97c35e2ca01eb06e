// JdbcStore: the rows of the Iceberg JDBC catalog, as Iceberg Java's JdbcCatalog and
// pyiceberg's SqlCatalog lay them out, so those tools and ours share one catalog database:
//
//   iceberg_tables(catalog_name, table_namespace, table_name, metadata_location,
//                  previous_metadata_location, iceberg_type)   -- key: the first three
//   iceberg_namespace_properties(catalog_name, namespace, property_key, property_value)
//
// Namespaces are stored dot-joined ("a.b"). A namespace exists if it has a property row
// (creation writes "exists"="true" when given no properties) or holds a table, directly or in
// a child namespace. iceberg_type is "TABLE" for tables (NULL, as older writers leave it,
// also counts as a table); views are other tools' rows and are ignored. Databases created by
// older writers without iceberg_type are used as they are.
//
// Not thread-safe: one connection; the owner serializes calls.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "catalog/sql/sqlite_db.h"
#include "common/error.h"
#include "iceberg/spec/table_identifier.h"

namespace databox::catalog::sql {

//! One metadata-location swap inside a transaction.
struct LocationSwap {
  iceberg::TableIdentifier table;
  //! Current metadata location the commit was planned on; nullopt = the table is created.
  std::optional<std::string> expected;
  std::string next;  //!< the new metadata file
};

//! One table row: which metadata file a table points at.
using TablePointer = iceberg::TablePointer;

class JdbcStore {
 public:
  //! Opens `sqlite_path` for catalog `catalog_name`, creating the two tables if absent.
  static Result<std::unique_ptr<JdbcStore>> Open(const std::string& sqlite_path,
                                                 std::string catalog_name, int busy_timeout_ms);

  const std::string& catalog_name() const { return catalog_name_; }

  Result<bool> NamespaceExists(const iceberg::Namespace& ns);
  //! Inserts the property rows; kAlreadyExists if the namespace exists.
  Status CreateNamespace(const iceberg::Namespace& ns,
                         const std::map<std::string, std::string>& properties);
  //! Direct children of `parent` ({} = top level), sorted, without duplicates.
  Result<std::vector<iceberg::Namespace>> ListNamespaces(const iceberg::Namespace& parent);
  Result<std::map<std::string, std::string>> NamespaceProperties(const iceberg::Namespace& ns);
  //! Deletes `removals`, then upserts `updates`, in one transaction.
  Status UpdateNamespaceProperties(const iceberg::Namespace& ns,
                                   std::span<const std::string> removals,
                                   const std::map<std::string, std::string>& updates);
  //! kNotFound if absent, kConflict if it holds tables or child namespaces.
  Status DropNamespace(const iceberg::Namespace& ns);

  //! Tables directly in `ns`, sorted by name.
  Result<std::vector<iceberg::TableIdentifier>> ListTables(const iceberg::Namespace& ns);
  //! Every table of this catalog (all namespaces), sorted by namespace and name.
  Result<std::vector<TablePointer>> AllTables();
  //! The table's metadata location; nullopt if there is no such table.
  Result<std::optional<std::string>> MetadataLocation(const iceberg::TableIdentifier& table);
  //! Adds a table row; kAlreadyExists if the name is taken.
  Status InsertTable(const iceberg::TableIdentifier& table, std::string_view metadata_location);
  //! Compare-and-swap of metadata_location (previous_metadata_location := expected);
  //! kConflict if the row no longer has `expected` (or was dropped), or, for a create,
  //! if the table exists.
  Status SwapMetadataLocation(const LocationSwap& swap);
  //! All swaps in one transaction: all land or none (kConflict names the first miss).
  Status SwapMetadataLocations(std::span<const LocationSwap> swaps);
  //! kNotFound if absent.
  Status DropTable(const iceberg::TableIdentifier& table);
  //! kNotFound if `from` is absent, kAlreadyExists if `to` is taken.
  Status RenameTable(const iceberg::TableIdentifier& from, const iceberg::TableIdentifier& to);

 private:
  JdbcStore(std::unique_ptr<SqliteDb> db, std::string catalog_name, bool has_type_column)
      : db_(std::move(db)),
        catalog_name_(std::move(catalog_name)),
        has_type_column_(has_type_column) {}

  //! Runs `body` inside BEGIN IMMEDIATE ... COMMIT, rolling back on error.
  template <typename Body>
  Status InTransaction(Body&& body);
  //! The SQL condition that selects table rows (not views) of this schema version.
  std::string_view TableFilter() const;

  std::unique_ptr<SqliteDb> db_;
  std::string catalog_name_;  //!< the catalog_name column value of every row we touch
  bool has_type_column_;      //!< iceberg_type exists (schema v1)
};

}  // namespace databox::catalog::sql
