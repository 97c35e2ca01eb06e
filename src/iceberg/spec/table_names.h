// TableNames: the names a catalog server knows databox's tables by, when they differ from
// databox's own. Some servers refuse a table name that does not start with a letter or digit:
// SeaweedFS's Iceberg REST catalog and AWS S3 Tables answer 400 to `_dlt_loads`. With an
// underscore prefix P (`[project.catalog] underscore_table_prefix`, docs/registry.md) the mapping
// is, for every name N:
//   N starts with '_'          -> P + N            (_dlt_loads -> dbx_dlt_loads)
//   N starts with P + '_'      -> reserved: refused (it would read back as another table)
//   any other N                -> N
// and back, for a name the server lists: P + '_' + rest -> '_' + rest, anything else as is.
// P is lowercase letters and digits starting with a letter, so P + N starts with a letter and
// the split is unambiguous. Without a prefix every name is its own (the identity).
//
// The REST catalog applies it at its boundary (every request and listing); SQL that names a
// table on the server itself (DuckDB's attached catalog, Trino) and warehouse recovery, which
// reads table names from the server's folders, ask the catalog for it
// (iceberg::Catalog::table_names). Namespaces are not mapped.
#pragma once

#include <string>
#include <string_view>

#include "common/error.h"
#include "iceberg/spec/table_identifier.h"

namespace databox::iceberg {

class TableNames {
 public:
  //! The identity: every name is its own.
  TableNames() = default;
  //! kConfig unless `underscore_prefix` is empty (the identity) or matches [a-z][a-z0-9]{0,31}.
  static Result<TableNames> Make(std::string underscore_prefix);

  //! True when some name is mapped (a prefix is set).
  bool Maps() const { return !prefix_.empty(); }
  const std::string& underscore_prefix() const { return prefix_; }

  //! The server's name for databox's `name`; kConfig when `name` is reserved (starts with P_).
  Result<std::string> ToServer(std::string_view name) const;
  //! The identifier with its table name mapped as ToServer does.
  Result<TableIdentifier> ToServer(const TableIdentifier& table) const;
  //! Databox's name for a name the server holds (a listing, a table folder).
  std::string FromServer(std::string_view name) const;
  TableIdentifier FromServer(const TableIdentifier& table) const;

 private:
  explicit TableNames(std::string prefix) : prefix_(std::move(prefix)) {}

  std::string prefix_;  //!< empty: the identity
};

}  // namespace databox::iceberg
