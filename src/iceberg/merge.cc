#include "iceberg/merge.h"

#include <map>
#include <optional>

#include "duck/quote.h"

namespace databox::iceberg {
namespace {

using duck::QuoteIdentifier;

//! Drops a temp table on scope exit.
struct TempTable {
  duck::Connection& conn;
  std::string name;
  ~TempTable() { (void)conn.Execute("DROP TABLE IF EXISTS " + name); }
};

//! Whether [lower, upper] (missing = unbounded) can hold a value in [min, max].
bool Overlaps(const Type& type, const DataFile& file, int32_t id, const Literal& min,
              const Literal& max) {
  if (auto it = file.upper_bounds.find(id); it != file.upper_bounds.end()) {
    auto upper = Literal::FromBytes(
        type, std::span(reinterpret_cast<const uint8_t*>(it->second.data()), it->second.size()));
    if (upper) {
      auto cmp = Literal::Compare(*upper, min);
      if (cmp && *cmp < 0) return false;
    }
  }
  if (auto it = file.lower_bounds.find(id); it != file.lower_bounds.end()) {
    auto lower = Literal::FromBytes(
        type, std::span(reinterpret_cast<const uint8_t*>(it->second.data()), it->second.size()));
    if (lower) {
      auto cmp = Literal::Compare(*lower, max);
      if (cmp && *cmp > 0) return false;
    }
  }
  return true;
}

//! The files among `files` that have a row matching `filter` (SQL over alias f; may use
//! temp tables); the filename column maps back to the DataFile.
Result<std::vector<DataFile>> FilesWithMatches(duck::Connection& conn, const Schema& schema,
                                               const std::vector<DataFile>& files,
                                               const std::string& filter) {
  if (files.empty()) return std::vector<DataFile>{};
  std::map<std::string, const DataFile*> by_path;
  std::string paths;
  for (const auto& file : files) {
    DATABOX_ASSIGN_OR_RETURN(std::string path, DuckPathOf(file.file_path));
    by_path[path] = &file;
    paths += (paths.empty() ? "" : ", ") + duck::QuoteLiteral(path);
  }
  (void)schema;
  DATABOX_ASSIGN_OR_RETURN(
      auto result, conn.Query("SELECT DISTINCT filename FROM read_parquet([" + paths +
                              "], union_by_name = true, filename = true) AS f WHERE " + filter));
  std::vector<DataFile> out;
  for (uint64_t row = 0; row < result.row_count(); ++row) {
    DATABOX_ASSIGN_OR_RETURN(std::string path, result.GetString(0, row));
    auto it = by_path.find(path);
    if (it == by_path.end()) {
      return MakeError(ErrorKind::kInternal, "DuckDB reported an unknown file " + path);
    }
    out.push_back(*it->second);
  }
  return out;
}

Result<std::unique_ptr<SnapshotOperation>> Rewrite(duck::Connection& conn, const Table& table,
                                                   const std::vector<DataFile>& affected,
                                                   const std::string& new_rows_sql,
                                                   const RowChangeOptions& options) {
  auto op = table.NewOverwrite(options.snapshot);
  for (const auto& file : affected) op->DeleteFile(file.file_path);
  if (!new_rows_sql.empty()) {
    DATABOX_ASSIGN_OR_RETURN(auto files, WriteDataFiles(conn, *table.io(), table.metadata(),
                                                        new_rows_sql, options.write));
    op->AddFiles(std::move(files));
  }
  return op;
}

}  // namespace

Result<std::unique_ptr<SnapshotOperation>> PrepareMerge(duck::Connection& conn, const Table& table,
                                                        const std::string& incoming_sql,
                                                        const RowChangeOptions& options) {
  const Schema& schema = table.schema();
  std::vector<const NestedField*> keys;
  for (int32_t id : schema.identifier_field_ids()) {
    const NestedField* top = nullptr;
    for (const auto& field : schema.fields()) {
      if (field.id == id) top = &field;
    }
    if (top == nullptr) {
      return MakeError(ErrorKind::kConfig,
                       "identifier field " + std::to_string(id) + " of " +
                           TableName(table.identifier()) +
                           " is not a top-level column: merge needs top-level keys");
    }
    keys.push_back(top);
  }
  if (keys.empty()) {
    return MakeError(ErrorKind::kConfig, "table " + TableName(table.identifier()) +
                                             " has no identifier fields: merge needs a key");
  }

  DATABOX_ASSIGN_OR_RETURN(std::string projected, ProjectToSchema(conn, schema, incoming_sql));
  TempTable incoming{conn, QuoteIdentifier("__databox_incoming_" + NewUuid())};
  DATABOX_RETURN_IF_ERROR(conn.Execute("CREATE TEMP TABLE " + incoming.name + " AS " + projected));

  // Key range of the incoming rows, for pruning by manifest bounds.
  std::string ranges;
  for (const auto* key : keys) {
    const std::string k = QuoteIdentifier(key->name);
    ranges += (ranges.empty() ? "" : ", ") +
              ("CAST(min(" + k + ") AS VARCHAR), CAST(max(" + k + ") AS VARCHAR)");
  }
  DATABOX_ASSIGN_OR_RETURN(auto range,
                           conn.Query("SELECT " + ranges + ", count(*) FROM " + incoming.name));
  DATABOX_ASSIGN_OR_RETURN(int64_t incoming_rows, range.GetInt64(2 * keys.size(), 0));
  if (incoming_rows == 0) return table.NewOverwrite(options.snapshot);

  DATABOX_ASSIGN_OR_RETURN(auto live, table.LiveDataFiles(options.snapshot.branch));
  std::vector<DataFile> candidates;
  for (const auto& file : live) {
    bool can_match = true;
    for (size_t i = 0; i < keys.size() && can_match; ++i) {
      if (range.IsNull(2 * i, 0)) continue;
      DATABOX_ASSIGN_OR_RETURN(std::string min_text, range.GetString(2 * i, 0));
      DATABOX_ASSIGN_OR_RETURN(std::string max_text, range.GetString(2 * i + 1, 0));
      auto min = Literal::Parse(keys[i]->type, min_text);
      auto max = Literal::Parse(keys[i]->type, max_text);
      if (!min || !max) continue;
      can_match = Overlaps(keys[i]->type, file, keys[i]->id, *min, *max);
    }
    if (can_match) candidates.push_back(file);
  }

  std::string join;
  for (const auto* key : keys) {
    const std::string k = QuoteIdentifier(key->name);
    join += (join.empty() ? "" : " AND ") + ("i." + k + " = f." + k);
  }
  const std::string matched =
      "EXISTS (SELECT 1 FROM " + incoming.name + " AS i WHERE " + join + ")";
  DATABOX_ASSIGN_OR_RETURN(auto affected, FilesWithMatches(conn, schema, candidates, matched));

  std::string new_rows = "SELECT * FROM " + incoming.name;
  if (!affected.empty()) {
    DATABOX_ASSIGN_OR_RETURN(std::string read, FilesReadSql(schema, affected));
    new_rows = "SELECT * FROM (" + read + ") AS f WHERE NOT " + matched + " UNION ALL " + new_rows;
  }
  return Rewrite(conn, table, affected, new_rows, options);
}

Result<std::unique_ptr<SnapshotOperation>> PrepareDeleteWhere(duck::Connection& conn,
                                                              const Table& table,
                                                              const std::string& predicate_sql,
                                                              const RowChangeOptions& options) {
  const Schema& schema = table.schema();
  DATABOX_ASSIGN_OR_RETURN(auto live, table.LiveDataFiles(options.snapshot.branch));
  DATABOX_ASSIGN_OR_RETURN(auto affected,
                           FilesWithMatches(conn, schema, live, "(" + predicate_sql + ")"));
  if (affected.empty()) return table.NewOverwrite(options.snapshot);
  DATABOX_ASSIGN_OR_RETURN(std::string read, FilesReadSql(schema, affected));
  DATABOX_ASSIGN_OR_RETURN(auto remaining,
                           conn.Query("SELECT count(*) FROM (" + read + ") AS f WHERE (" +
                                      predicate_sql + ") IS NOT TRUE"));
  DATABOX_ASSIGN_OR_RETURN(int64_t kept, remaining.GetInt64(0, 0));
  const std::string new_rows =
      kept == 0 ? std::string()
                : "SELECT * FROM (" + read + ") AS f WHERE (" + predicate_sql + ") IS NOT TRUE";
  return Rewrite(conn, table, affected, new_rows, options);
}

}  // namespace databox::iceberg
