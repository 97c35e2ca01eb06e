// The files a consumer reads first (docs/publish.md, "manifest.json" and "current.json"): one
// manifest per version, listing every relation it holds, and the pointer naming the newest
// complete version. Both are JSON with a "format" field; readers refuse other formats.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/error.h"

namespace databox::publish {

inline constexpr const char* kFormat = "databox-publish";
inline constexpr int kFormatVersion = 1;

//! How a published relation is stored.
enum class RelationKind {
  kIcebergTable,  //!< "iceberg_table": a raw table, read from its metadata file
  kDuckDbTable,   //!< "duckdb_table": a model, a table in the version's models.duckdb
};
std::string_view RelationKindName(RelationKind kind);

//! A column as DuckDB reads it: name and type.
using Column = std::pair<std::string, std::string>;

//! SHA-256 (hex) of the ordered schema: "<name>\t<type>\n" per column, in order.
std::string SchemaSha256(const std::vector<Column>& columns);

struct Relation {
  std::string name;  //!< namespace.table or schema.model
  RelationKind kind = RelationKind::kIcebergTable;
  //! Relative to the target root: the metadata file, or the models database.
  std::string location;
  std::vector<Column> schema;
  std::string schema_sha256;
  int64_t rows = 0;
  std::optional<int64_t> snapshot_id;  //!< the raw table's snapshot; none for a model
  std::vector<std::string> load_ids;   //!< the _dlt_load_id values it holds, where it has them
  //! Data and delete files it names, relative to the root (what retention keeps).
  std::vector<std::string> files;
};

struct Manifest {
  int64_t version = 0;
  std::string published_at;  //!< ISO 8601 UTC
  std::string databox_version;
  std::vector<Relation> relations;

  std::string ToJson() const;
  //! kData naming `where` when the text is not a manifest of this format.
  static Result<Manifest> FromJson(std::string_view text, std::string_view where);
};

//! current.json: the newest complete version.
struct Pointer {
  int64_t version = 0;
  std::string manifest;  //!< relative to the root
  std::string published_at;

  std::string ToJson() const;
  static Result<Pointer> FromJson(std::string_view text, std::string_view where);
};

}  // namespace databox::publish
