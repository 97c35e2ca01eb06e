#include "publish/readback.h"

#include "duck/quote.h"
#include "iceberg/data/scan_sql.h"
#include "publish/model_export.h"
#include "publish/relation_stats.h"

namespace databox::publish {
namespace {

constexpr const char* kModelsAlias = "databox_published_models";

//! What differs between `read` and `relation`, or "".
std::string Compare(const Relation& relation, const RelationStats& read) {
  if (read.rows != relation.rows) {
    return std::to_string(read.rows) + " rows read back, the manifest says " +
           std::to_string(relation.rows);
  }
  if (SchemaSha256(read.schema) != relation.schema_sha256) {
    return "the schema read back differs from the manifest's";
  }
  if (read.load_ids != relation.load_ids)
    return "the load ids read back differ from the manifest's";
  return "";
}

}  // namespace

Result<std::vector<std::string>> ReadBack(duck::Connection& conn, const Manifest& manifest,
                                          const Layout& layout) {
  std::vector<std::string> problems;
  bool models_attached = false;
  for (const Relation& relation : manifest.relations) {
    const std::string location = layout.Absolute(relation.location);
    std::string sql;
    if (relation.kind == RelationKind::kIcebergTable) {
      DATABOX_ASSIGN_OR_RETURN(std::string path, iceberg::DuckPathOf(location));
      sql = "SELECT * FROM iceberg_scan(" + duck::QuoteLiteral(path) + ")";
    } else {
      if (!models_attached) {
        DATABOX_ASSIGN_OR_RETURN(std::string path, iceberg::DuckPathOf(location));
        DATABOX_RETURN_IF_ERROR(conn.Execute("ATTACH " + duck::QuoteLiteral(path) + " AS " +
                                             duck::QuoteIdentifier(kModelsAlias) + " (READ_ONLY)"));
        models_attached = true;
      }
      sql = RelationSql(relation.name, kModelsAlias);
    }
    auto read = ReadRelationStats(conn, sql);
    if (!read) {
      problems.push_back(relation.name + ": cannot be read back from " + location + ": " +
                         read.error().message);
      continue;
    }
    if (std::string diff = Compare(relation, *read); !diff.empty()) {
      problems.push_back(relation.name + ": " + diff);
    }
  }
  if (models_attached) {
    DATABOX_RETURN_IF_ERROR(conn.Execute("DETACH " + duck::QuoteIdentifier(kModelsAlias)));
  }
  return problems;
}

}  // namespace databox::publish
