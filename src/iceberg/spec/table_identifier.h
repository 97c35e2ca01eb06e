// Namespace and table identifiers, and their dotted text form (the JDBC catalog's storage form
// and what people type: "raw_ebird.observations").
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/error.h"

namespace databox::iceberg {

//! A namespace's levels, outermost first; empty = the catalog root.
using Namespace = std::vector<std::string>;

struct TableIdentifier {
  Namespace ns;      //!< at least one level
  std::string name;  //!< the table's name in `ns`

  //! "a.b.table".
  std::string ToString() const;
  friend auto operator<=>(const TableIdentifier&, const TableIdentifier&) = default;
};

//! "a.b" for {"a","b"}.
std::string NamespaceToString(const Namespace& ns);
//! {"a","b"} for "a.b"; {} for "".
Namespace NamespaceFromString(std::string_view text);
//! Parses "a.b.table" (the last level is the table); kConfig if there is no namespace.
Result<TableIdentifier> ParseTableIdentifier(std::string_view text);
//! kConfig unless every level is non-empty and free of '.' (which would make the dotted
//! form ambiguous) and NUL bytes; an empty namespace is rejected unless `allow_root`.
Status ValidateNamespace(const Namespace& ns, bool allow_root = false);
//! ValidateNamespace plus a non-empty, dot-free table name.
Status ValidateTableIdentifier(const TableIdentifier& table);

//! Which metadata file a catalog holds for one table.
struct TablePointer {
  TableIdentifier table;
  std::string metadata_location;
};

}  // namespace databox::iceberg
