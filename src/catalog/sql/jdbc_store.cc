#include "catalog/sql/jdbc_store.h"

#include <algorithm>
#include <set>

namespace databox::catalog::sql {
namespace {

// Column types and keys as the JDBC catalog (schema v1) declares them.
constexpr std::string_view kCreateTables = R"sql(
CREATE TABLE IF NOT EXISTS iceberg_tables (
  catalog_name VARCHAR(255) NOT NULL,
  table_namespace VARCHAR(255) NOT NULL,
  table_name VARCHAR(255) NOT NULL,
  metadata_location VARCHAR(1000),
  previous_metadata_location VARCHAR(1000),
  iceberg_type VARCHAR(5),
  PRIMARY KEY (catalog_name, table_namespace, table_name));
CREATE TABLE IF NOT EXISTS iceberg_namespace_properties (
  catalog_name VARCHAR(255) NOT NULL,
  namespace VARCHAR(255) NOT NULL,
  property_key VARCHAR(255) NOT NULL,
  property_value VARCHAR(1000),
  PRIMARY KEY (catalog_name, namespace, property_key));
)sql";

constexpr std::string_view kTableType = "TABLE";
//! What a namespace created without properties gets, so that it exists (JDBC convention).
constexpr std::string_view kExistsKey = "exists";

// Selects rows of namespace ?2 or any namespace below it ("?2." prefix = ?3).
constexpr std::string_view kTablesInTree =
    "SELECT 1 FROM iceberg_tables WHERE catalog_name = ?1 AND (table_namespace = ?2 OR "
    "substr(table_namespace, 1, length(?3)) = ?3) LIMIT 1";
constexpr std::string_view kPropertiesInTree =
    "SELECT 1 FROM iceberg_namespace_properties WHERE catalog_name = ?1 AND (namespace = ?2 OR "
    "substr(namespace, 1, length(?3)) = ?3) LIMIT 1";

}  // namespace

Result<std::unique_ptr<JdbcStore>> JdbcStore::Open(const std::string& sqlite_path,
                                                   std::string catalog_name, int busy_timeout_ms) {
  DATABOX_ASSIGN_OR_RETURN(auto db, SqliteDb::Open(sqlite_path, busy_timeout_ms));
  DATABOX_RETURN_IF_ERROR(db->Exec(kCreateTables));
  DATABOX_ASSIGN_OR_RETURN(bool has_type, db->HasColumn("iceberg_tables", "iceberg_type"));
  return std::unique_ptr<JdbcStore>(
      new JdbcStore(std::move(db), std::move(catalog_name), has_type));
}

template <typename Body>
Status JdbcStore::InTransaction(Body&& body) {
  DATABOX_RETURN_IF_ERROR(db_->Exec("BEGIN IMMEDIATE"));
  Status status = body();
  if (status) status = db_->Exec("COMMIT");
  if (!status) (void)db_->Exec("ROLLBACK");  // the original error is the one to report
  return status;
}

std::string_view JdbcStore::TableFilter() const {
  return has_type_column_ ? " AND (iceberg_type = 'TABLE' OR iceberg_type IS NULL)" : "";
}

Result<bool> JdbcStore::NamespaceExists(const iceberg::Namespace& ns) {
  std::string name = iceberg::NamespaceToString(ns);
  std::string below = name + ".";
  for (std::string_view query : {kTablesInTree, kPropertiesInTree}) {
    DATABOX_ASSIGN_OR_RETURN(SqliteStatement stmt,
                             db_->Prepare(query, {catalog_name_, name, below}));
    DATABOX_ASSIGN_OR_RETURN(bool found, stmt.Step());
    if (found) return true;
  }
  return false;
}

Status JdbcStore::CreateNamespace(const iceberg::Namespace& ns,
                                  const std::map<std::string, std::string>& properties) {
  std::string name = iceberg::NamespaceToString(ns);
  return InTransaction([&]() -> Status {
    DATABOX_ASSIGN_OR_RETURN(bool exists, NamespaceExists(ns));
    if (exists) {
      return MakeError(
          ErrorKind::kAlreadyExists,
          "namespace '" + name + "' already exists in catalog '" + catalog_name_ + "'");
    }
    std::map<std::string, std::string> rows = properties;
    if (rows.empty()) rows.emplace(kExistsKey, "true");
    for (const auto& [key, value] : rows) {
      DATABOX_RETURN_IF_ERROR(db_->Run(
          "INSERT INTO iceberg_namespace_properties (catalog_name, namespace, property_key, "
          "property_value) VALUES (?1, ?2, ?3, ?4)",
          {catalog_name_, name, key, value}));
    }
    return Ok();
  });
}

Result<std::vector<iceberg::Namespace>> JdbcStore::ListNamespaces(
    const iceberg::Namespace& parent) {
  DATABOX_ASSIGN_OR_RETURN(
      SqliteStatement stmt,
      db_->Prepare("SELECT table_namespace FROM iceberg_tables WHERE catalog_name = ?1 UNION "
                   "SELECT namespace FROM iceberg_namespace_properties WHERE catalog_name = ?1",
                   {catalog_name_}));
  std::set<iceberg::Namespace> children;
  while (true) {
    DATABOX_ASSIGN_OR_RETURN(bool row, stmt.Step());
    if (!row) break;
    iceberg::Namespace ns = iceberg::NamespaceFromString(stmt.Text(0).value_or(""));
    if (ns.size() <= parent.size() || !std::equal(parent.begin(), parent.end(), ns.begin())) {
      continue;
    }
    ns.resize(parent.size() + 1);
    children.insert(std::move(ns));
  }
  return std::vector<iceberg::Namespace>(children.begin(), children.end());
}

Result<std::map<std::string, std::string>> JdbcStore::NamespaceProperties(
    const iceberg::Namespace& ns) {
  DATABOX_ASSIGN_OR_RETURN(
      SqliteStatement stmt,
      db_->Prepare("SELECT property_key, property_value FROM iceberg_namespace_properties WHERE "
                   "catalog_name = ?1 AND namespace = ?2",
                   {catalog_name_, iceberg::NamespaceToString(ns)}));
  std::map<std::string, std::string> out;
  while (true) {
    DATABOX_ASSIGN_OR_RETURN(bool row, stmt.Step());
    if (!row) return out;
    out.emplace(stmt.Text(0).value_or(""), stmt.Text(1).value_or(""));
  }
}

Status JdbcStore::UpdateNamespaceProperties(const iceberg::Namespace& ns,
                                            std::span<const std::string> removals,
                                            const std::map<std::string, std::string>& updates) {
  std::string name = iceberg::NamespaceToString(ns);
  return InTransaction([&]() -> Status {
    for (const std::string& key : removals) {
      DATABOX_RETURN_IF_ERROR(db_->Run(
          "DELETE FROM iceberg_namespace_properties WHERE catalog_name = ?1 AND namespace = ?2 "
          "AND property_key = ?3",
          {catalog_name_, name, key}));
    }
    for (const auto& [key, value] : updates) {
      DATABOX_RETURN_IF_ERROR(db_->Run(
          "INSERT INTO iceberg_namespace_properties (catalog_name, namespace, property_key, "
          "property_value) VALUES (?1, ?2, ?3, ?4) ON CONFLICT (catalog_name, namespace, "
          "property_key) DO UPDATE SET property_value = excluded.property_value",
          {catalog_name_, name, key, value}));
    }
    return Ok();
  });
}

Status JdbcStore::DropNamespace(const iceberg::Namespace& ns) {
  std::string name = iceberg::NamespaceToString(ns);
  std::string below = name + ".";
  return InTransaction([&]() -> Status {
    DATABOX_ASSIGN_OR_RETURN(bool exists, NamespaceExists(ns));
    if (!exists) {
      return MakeError(
          ErrorKind::kNotFound,
          "namespace '" + name + "' does not exist in catalog '" + catalog_name_ + "'");
    }
    DATABOX_ASSIGN_OR_RETURN(SqliteStatement tables,
                             db_->Prepare(kTablesInTree, {catalog_name_, name, below}));
    DATABOX_ASSIGN_OR_RETURN(bool has_tables, tables.Step());
    DATABOX_ASSIGN_OR_RETURN(
        SqliteStatement children,
        db_->Prepare("SELECT 1 FROM iceberg_namespace_properties WHERE catalog_name = ?1 AND "
                     "substr(namespace, 1, length(?2)) = ?2 LIMIT 1",
                     {catalog_name_, below}));
    DATABOX_ASSIGN_OR_RETURN(bool has_children, children.Step());
    if (has_tables || has_children) {
      return MakeError(ErrorKind::kConflict, "namespace '" + name +
                                                 "' is not empty; drop its tables and child "
                                                 "namespaces first");
    }
    DATABOX_RETURN_IF_ERROR(db_->Run(
        "DELETE FROM iceberg_namespace_properties WHERE catalog_name = ?1 AND namespace = ?2",
        {catalog_name_, name}));
    return Ok();
  });
}

Result<std::vector<iceberg::TableIdentifier>> JdbcStore::ListTables(const iceberg::Namespace& ns) {
  std::string query =
      "SELECT table_name FROM iceberg_tables WHERE catalog_name = ?1 AND table_namespace = ?2";
  query += TableFilter();
  query += " ORDER BY table_name";
  DATABOX_ASSIGN_OR_RETURN(SqliteStatement stmt,
                           db_->Prepare(query, {catalog_name_, iceberg::NamespaceToString(ns)}));
  std::vector<iceberg::TableIdentifier> out;
  while (true) {
    DATABOX_ASSIGN_OR_RETURN(bool row, stmt.Step());
    if (!row) return out;
    out.push_back({.ns = ns, .name = stmt.Text(0).value_or("")});
  }
}

Result<std::vector<TablePointer>> JdbcStore::AllTables() {
  std::string query =
      "SELECT table_namespace, table_name, metadata_location FROM iceberg_tables WHERE "
      "catalog_name = ?1";
  query += TableFilter();
  query += " ORDER BY table_namespace, table_name";
  DATABOX_ASSIGN_OR_RETURN(SqliteStatement stmt, db_->Prepare(query, {catalog_name_}));
  std::vector<TablePointer> out;
  while (true) {
    DATABOX_ASSIGN_OR_RETURN(bool row, stmt.Step());
    if (!row) return out;
    out.push_back({.table = {.ns = iceberg::NamespaceFromString(stmt.Text(0).value_or("")),
                             .name = stmt.Text(1).value_or("")},
                   .metadata_location = stmt.Text(2).value_or("")});
  }
}

Result<std::optional<std::string>> JdbcStore::MetadataLocation(
    const iceberg::TableIdentifier& table) {
  std::string query =
      "SELECT metadata_location FROM iceberg_tables WHERE catalog_name = ?1 AND "
      "table_namespace = ?2 AND table_name = ?3";
  query += TableFilter();
  DATABOX_ASSIGN_OR_RETURN(
      SqliteStatement stmt,
      db_->Prepare(query, {catalog_name_, iceberg::NamespaceToString(table.ns), table.name}));
  DATABOX_ASSIGN_OR_RETURN(bool row, stmt.Step());
  if (!row) return std::optional<std::string>();
  return stmt.Text(0);
}

Status JdbcStore::InsertTable(const iceberg::TableIdentifier& table,
                              std::string_view metadata_location) {
  std::string ns = iceberg::NamespaceToString(table.ns);
  auto inserted =
      has_type_column_
          ? db_->Run(
                "INSERT INTO iceberg_tables (catalog_name, table_namespace, table_name, "
                "metadata_location, previous_metadata_location, iceberg_type) VALUES "
                "(?1, ?2, ?3, ?4, NULL, ?5)",
                {catalog_name_, ns, table.name, metadata_location, kTableType})
          : db_->Run(
                "INSERT INTO iceberg_tables (catalog_name, table_namespace, table_name, "
                "metadata_location, previous_metadata_location) VALUES (?1, ?2, ?3, ?4, NULL)",
                {catalog_name_, ns, table.name, metadata_location});
  if (!inserted) {
    if (inserted.error().kind == ErrorKind::kAlreadyExists) {
      return MakeError(
          ErrorKind::kAlreadyExists,
          "table '" + table.ToString() + "' already exists in catalog '" + catalog_name_ + "'");
    }
    return std::unexpected(inserted.error());
  }
  return Ok();
}

Status JdbcStore::SwapMetadataLocation(const LocationSwap& swap) {
  if (!swap.expected) {
    Status inserted = InsertTable(swap.table, swap.next);
    if (!inserted && inserted.error().kind == ErrorKind::kAlreadyExists) {
      return MakeError(ErrorKind::kConflict, "table '" + swap.table.ToString() +
                                                 "' was created by a concurrent commit; reload "
                                                 "it and retry");
    }
    return inserted;
  }
  if (swap.next == *swap.expected) {
    // A commit without changes only re-asserts the version; previous_metadata_location stays.
    DATABOX_ASSIGN_OR_RETURN(auto current, MetadataLocation(swap.table));
    if (current == swap.expected) return Ok();
    return MakeError(ErrorKind::kConflict, "table '" + swap.table.ToString() +
                                               "' was changed (or dropped) by a concurrent "
                                               "commit; reload it and retry");
  }
  DATABOX_ASSIGN_OR_RETURN(
      int64_t changed,
      db_->Run("UPDATE iceberg_tables SET metadata_location = ?5, previous_metadata_location = ?4 "
               "WHERE catalog_name = ?1 AND table_namespace = ?2 AND table_name = ?3 AND "
               "metadata_location = ?4",
               {catalog_name_, iceberg::NamespaceToString(swap.table.ns), swap.table.name,
                *swap.expected, swap.next}));
  if (changed == 0) {
    return MakeError(ErrorKind::kConflict,
                     "table '" + swap.table.ToString() + "' in catalog '" + catalog_name_ +
                         "' was changed (or dropped) by a concurrent commit; reload it and retry");
  }
  return Ok();
}

Status JdbcStore::SwapMetadataLocations(std::span<const LocationSwap> swaps) {
  return InTransaction([&]() -> Status {
    for (const LocationSwap& swap : swaps) DATABOX_RETURN_IF_ERROR(SwapMetadataLocation(swap));
    return Ok();
  });
}

Status JdbcStore::DropTable(const iceberg::TableIdentifier& table) {
  std::string query =
      "DELETE FROM iceberg_tables WHERE catalog_name = ?1 AND table_namespace = ?2 AND "
      "table_name = ?3";
  query += TableFilter();
  DATABOX_ASSIGN_OR_RETURN(
      int64_t changed,
      db_->Run(query, {catalog_name_, iceberg::NamespaceToString(table.ns), table.name}));
  if (changed == 0) {
    return MakeError(
        ErrorKind::kNotFound,
        "table '" + table.ToString() + "' does not exist in catalog '" + catalog_name_ + "'");
  }
  return Ok();
}

Status JdbcStore::RenameTable(const iceberg::TableIdentifier& from,
                              const iceberg::TableIdentifier& to) {
  std::string query =
      "UPDATE iceberg_tables SET table_namespace = ?4, table_name = ?5 WHERE catalog_name = ?1 "
      "AND table_namespace = ?2 AND table_name = ?3";
  query += TableFilter();
  auto changed = db_->Run(query, {catalog_name_, iceberg::NamespaceToString(from.ns), from.name,
                                  iceberg::NamespaceToString(to.ns), to.name});
  if (!changed) {
    if (changed.error().kind == ErrorKind::kAlreadyExists) {
      return MakeError(ErrorKind::kAlreadyExists, "cannot rename '" + from.ToString() + "' to '" +
                                                      to.ToString() + "': that table exists");
    }
    return std::unexpected(changed.error());
  }
  if (*changed == 0) {
    return MakeError(
        ErrorKind::kNotFound,
        "table '" + from.ToString() + "' does not exist in catalog '" + catalog_name_ + "'");
  }
  return Ok();
}

}  // namespace databox::catalog::sql
