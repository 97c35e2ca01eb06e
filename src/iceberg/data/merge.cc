#include "iceberg/data/merge.h"

#include <map>
#include <optional>
#include <set>

#include "duck/quote.h"
#include "duck/temp_table.h"
#include "iceberg/data/position_deletes.h"
#include "iceberg/data/scan_sql.h"

namespace databox::iceberg {
namespace {

using duck::QuoteIdentifier;

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

//! The data files among `live.data` that have a row matching `filter` (SQL over alias f, the
//! table's columns; may use temp tables). Rows deleted by `live.deletes` do not count.
Result<std::vector<DataFile>> FilesWithMatches(duck::Connection& conn, const Schema& schema,
                                               const LiveFiles& live, const std::string& filter) {
  if (live.data.empty()) return std::vector<DataFile>{};
  std::map<std::string, const DataFile*> by_path;
  for (const auto& file : live.data) {
    DATABOX_ASSIGN_OR_RETURN(std::string path, DuckPathOf(file.file_path));
    by_path[path] = &file;
  }
  DATABOX_ASSIGN_OR_RETURN(std::string read,
                           FilesReadSql(schema, live.data, live.deletes, /*positions=*/true));
  DATABOX_ASSIGN_OR_RETURN(
      auto result, conn.Query("SELECT DISTINCT " + QuoteIdentifier(kScanFileColumn) + " FROM (" +
                              read + ") AS f WHERE " + filter));
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

//! Copy-on-write: `op` (an overwrite unless given) removing `affected` (and the delete files
//! that point only at them) and adding the rows of `new_rows_sql`.
Result<std::unique_ptr<SnapshotOperation>> Rewrite(
    duck::Connection& conn, const Table& table, const LiveFiles& live,
    const std::vector<DataFile>& affected, const std::string& new_rows_sql,
    const RowChangeOptions& options, std::unique_ptr<SnapshotOperation> op = nullptr) {
  if (op == nullptr) op = table.NewOverwrite(options.snapshot);
  std::set<std::string> removed;
  for (const auto& file : affected) {
    op->DeleteFile(file.file_path);
    removed.insert(file.file_path);
  }
  for (const auto& file : live.deletes) {
    auto target = ReferencedDataFile(file);
    if (target && removed.contains(*target)) op->DeleteFile(file.file_path);
  }
  if (!new_rows_sql.empty()) {
    DATABOX_ASSIGN_OR_RETURN(auto files, WriteDataFiles(conn, *table.io(), table.metadata(),
                                                        new_rows_sql, options.write));
    op->AddFiles(std::move(files));
  }
  return op;
}

//! The SQL of the surviving rows of `affected`, filtered by `keep` (over alias f).
Result<std::string> SurvivorsSql(const Schema& schema, const LiveFiles& live,
                                 const std::vector<DataFile>& affected, const std::string& keep) {
  DATABOX_ASSIGN_OR_RETURN(std::string read, FilesReadSql(schema, affected, live.deletes));
  return "SELECT * FROM (" + read + ") AS f WHERE " + keep;
}

//! Copy-on-write of `affected` keeping the rows for which `keep` holds (over alias f): `op`
//! removes them and adds those rows (nothing when none is left).
Result<std::unique_ptr<SnapshotOperation>> RewriteKeeping(
    duck::Connection& conn, const Table& table, const LiveFiles& live,
    const std::vector<DataFile>& affected, const std::string& keep, const RowChangeOptions& options,
    std::unique_ptr<SnapshotOperation> op = nullptr) {
  DATABOX_ASSIGN_OR_RETURN(std::string survivors,
                           SurvivorsSql(table.schema(), live, affected, keep));
  DATABOX_ASSIGN_OR_RETURN(auto remaining,
                           conn.Query("SELECT count(*) FROM (" + survivors + ") AS s"));
  DATABOX_ASSIGN_OR_RETURN(int64_t kept, remaining.GetInt64(0, 0));
  return Rewrite(conn, table, live, affected, kept == 0 ? std::string() : survivors, options,
                 std::move(op));
}

//! The live data files some live delete file may apply to; with `spec_id`, only those listed
//! under that partition spec.
std::vector<DataFile> DataFilesWithDeletes(const LiveFiles& live,
                                           std::optional<int32_t> spec_id = std::nullopt) {
  std::vector<DataFile> out;
  for (const auto& file : live.data) {
    if (spec_id) {
      auto it = live.spec_ids.find(file.file_path);
      if (it != live.spec_ids.end() && it->second != *spec_id) continue;
    }
    if (!DeletesFor(file, live.deletes).empty()) out.push_back(file);
  }
  return out;
}

//! A "replace" snapshot rewriting the files `pick` chooses among the live files (without the
//! rows deleted from them) under the default spec; nullptr when it chooses none.
template <typename Pick>
Result<std::unique_ptr<SnapshotOperation>> RewriteWhole(duck::Connection& conn, const Table& table,
                                                        const RowChangeOptions& options,
                                                        Pick pick) {
  DATABOX_ASSIGN_OR_RETURN(LiveFiles live, table.Live(options.snapshot.branch));
  const std::vector<DataFile> affected = pick(live);
  if (affected.empty()) return std::unique_ptr<SnapshotOperation>();
  return RewriteKeeping(conn, table, live, affected, "TRUE", options,
                        table.NewReplace(options.snapshot));
}

//! Merge-on-read: position delete files for the rows of `candidates` matching `filter` (over
//! alias f), added to `op` with the data files they point at.
Status AddPositionDeletes(duck::Connection& conn, const Table& table, const LiveFiles& live,
                          const std::vector<DataFile>& candidates, const std::string& filter,
                          const RowChangeOptions& options, SnapshotOperation& op) {
  if (candidates.empty()) return Ok();
  DATABOX_ASSIGN_OR_RETURN(std::string read,
                           FilesReadSql(table.schema(), candidates, live.deletes, true));
  DATABOX_ASSIGN_OR_RETURN(std::string located, PathLocationsSql(candidates, "__m"));
  const std::string positions = "SELECT __m.location AS file_path, f." +
                                QuoteIdentifier(kScanPosColumn) + " AS pos FROM (" + read +
                                ") AS f JOIN " + located + " ON f." +
                                QuoteIdentifier(kScanFileColumn) + " = __m.path WHERE " + filter;
  DATABOX_ASSIGN_OR_RETURN(const DataFileWriteOptions write,
                           WithTableProperties(table.metadata(), options.write));
  DATABOX_ASSIGN_OR_RETURN(auto deletes,
                           WritePositionDeletes(conn, *table.io(), candidates, positions, write));
  for (auto& file : deletes) {
    if (auto target = ReferencedDataFile(file)) op.ReferenceFile(*target);
    op.AddFile(std::move(file));
  }
  return Ok();
}

//! The mode for a change through `property`, checked against what merge-on-read needs: format
//! version 2, and every live data file under the default spec (a delete file is recorded under
//! the default spec, with the tuple of the data file it points at).
Result<RowChangeMode> ModeFor(const Table& table, const LiveFiles& live,
                              const RowChangeOptions& options, const std::string& property) {
  RowChangeMode mode = RowChangeMode::kCopyOnWrite;
  if (options.mode) {
    mode = *options.mode;
  } else {
    DATABOX_ASSIGN_OR_RETURN(mode, RowChangeModeOf(table.metadata(), property));
  }
  if (mode != RowChangeMode::kMergeOnRead) return mode;
  const std::string name = table.identifier().ToString();
  if (table.metadata().format_version < 2) {
    return MakeError(ErrorKind::kConfig, "merge-on-read needs format version 2; " + name +
                                             " is version " +
                                             std::to_string(table.metadata().format_version));
  }
  const int32_t spec_id = table.metadata().default_spec_id;
  if (auto outside = DataFilesOutsideSpec(live, spec_id); !outside.empty()) {
    return MakeError(ErrorKind::kConfig,
                     "merge-on-read needs every live data file of " + name +
                         " under its default partition spec " + std::to_string(spec_id) + "; " +
                         std::to_string(outside.size()) +
                         " are under an earlier spec (the spec evolved): use copy-on-write, or "
                         "first rewrite them under the current spec (databox maintain " +
                         name + " --rewrite-specs --remove)");
  }
  return mode;
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
                           table.identifier().ToString() +
                           " is not a top-level column: merge needs top-level keys");
    }
    keys.push_back(top);
  }
  if (keys.empty()) {
    return MakeError(ErrorKind::kConfig, "table " + table.identifier().ToString() +
                                             " has no identifier fields: merge needs a key");
  }

  DATABOX_ASSIGN_OR_RETURN(std::string projected, ProjectToSchema(conn, schema, incoming_sql));
  duck::DropTableOnExit incoming(conn, QuoteIdentifier("__databox_incoming_" + NewUuid()));
  DATABOX_RETURN_IF_ERROR(
      conn.Execute("CREATE TEMP TABLE " + incoming.name() + " AS " + projected));

  // Key range of the incoming rows, for pruning by manifest bounds.
  std::string ranges;
  for (const auto* key : keys) {
    const std::string k = QuoteIdentifier(key->name);
    ranges += (ranges.empty() ? "" : ", ") +
              ("CAST(min(" + k + ") AS VARCHAR), CAST(max(" + k + ") AS VARCHAR)");
  }
  DATABOX_ASSIGN_OR_RETURN(auto range,
                           conn.Query("SELECT " + ranges + ", count(*) FROM " + incoming.name()));
  DATABOX_ASSIGN_OR_RETURN(int64_t incoming_rows, range.GetInt64(2 * keys.size(), 0));
  if (incoming_rows == 0) return table.NewOverwrite(options.snapshot);

  DATABOX_ASSIGN_OR_RETURN(LiveFiles live, table.Live(options.snapshot.branch));
  DATABOX_ASSIGN_OR_RETURN(RowChangeMode mode, ModeFor(table, live, options, kMergeModeProperty));
  std::vector<DataFile> candidates;
  for (const auto& file : live.data) {
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
      "EXISTS (SELECT 1 FROM " + incoming.name() + " AS i WHERE " + join + ")";
  const std::string incoming_select = "SELECT * FROM " + incoming.name();
  // Keys added by another writer after this read would be duplicated: such commits conflict.
  SnapshotChange change = options.snapshot;
  change.validate_no_new_data = true;
  if (const Snapshot* read = table.metadata().CommitBase(change.branch)) {
    change.read_snapshot = read->snapshot_id;
  }
  if (mode == RowChangeMode::kMergeOnRead) {
    auto op = table.NewOverwrite(change);
    DATABOX_RETURN_IF_ERROR(
        AddPositionDeletes(conn, table, live, candidates, matched, options, *op));
    DATABOX_ASSIGN_OR_RETURN(auto files, WriteDataFiles(conn, *table.io(), table.metadata(),
                                                        incoming_select, options.write));
    op->AddFiles(std::move(files));
    return op;
  }
  const LiveFiles scope{candidates, live.deletes, live.spec_ids};
  DATABOX_ASSIGN_OR_RETURN(auto affected, FilesWithMatches(conn, schema, scope, matched));
  std::string new_rows = incoming_select;
  if (!affected.empty()) {
    DATABOX_ASSIGN_OR_RETURN(std::string survivors,
                             SurvivorsSql(schema, live, affected, "NOT " + matched));
    new_rows = survivors + " UNION ALL " + new_rows;
  }
  return Rewrite(conn, table, live, affected, new_rows, options, table.NewOverwrite(change));
}

Result<std::unique_ptr<SnapshotOperation>> PrepareDeleteWhere(duck::Connection& conn,
                                                              const Table& table,
                                                              const std::string& predicate_sql,
                                                              const RowChangeOptions& options) {
  const Schema& schema = table.schema();
  DATABOX_ASSIGN_OR_RETURN(LiveFiles live, table.Live(options.snapshot.branch));
  DATABOX_ASSIGN_OR_RETURN(RowChangeMode mode, ModeFor(table, live, options, kDeleteModeProperty));
  const std::string matches = "(" + predicate_sql + ")";
  DATABOX_ASSIGN_OR_RETURN(auto affected, FilesWithMatches(conn, schema, live, matches));
  if (affected.empty()) return table.NewOverwrite(options.snapshot);
  if (mode == RowChangeMode::kMergeOnRead) {
    auto op = table.NewOverwrite(options.snapshot);
    DATABOX_RETURN_IF_ERROR(AddPositionDeletes(conn, table, live, affected, matches, options, *op));
    return op;
  }
  return RewriteKeeping(conn, table, live, affected, matches + " IS NOT TRUE", options);
}

Result<DeletedRowsSummary> DeletedRows(const Table& table, std::string_view ref) {
  DATABOX_ASSIGN_OR_RETURN(LiveFiles live, table.Live(ref));
  DeletedRowsSummary out;
  out.data_files = DataFilesWithDeletes(live);
  for (const auto& file : live.deletes) out.positions += file.record_count;
  out.delete_files = std::move(live.deletes);
  return out;
}

Result<std::unique_ptr<SnapshotOperation>> PrepareDeleteRewrite(duck::Connection& conn,
                                                                const Table& table,
                                                                const RowChangeOptions& options) {
  return RewriteWhole(conn, table, options, [&](const LiveFiles& live) {
    return DataFilesWithDeletes(live, table.metadata().default_spec_id);
  });
}

Result<std::unique_ptr<SnapshotOperation>> PrepareSpecRewrite(duck::Connection& conn,
                                                              const Table& table,
                                                              const RowChangeOptions& options) {
  return RewriteWhole(conn, table, options, [&](const LiveFiles& live) {
    return DataFilesOutsideSpec(live, table.metadata().default_spec_id);
  });
}

Result<RowChangeMode> RowChangeModeOf(const TableMetadata& metadata, const std::string& property) {
  auto it = metadata.properties.find(property);
  if (it == metadata.properties.end() || it->second == "copy-on-write") {
    return RowChangeMode::kCopyOnWrite;
  }
  if (it->second == "merge-on-read") return RowChangeMode::kMergeOnRead;
  return MakeError(ErrorKind::kConfig, "table property " + property + " is '" + it->second +
                                           "': expected copy-on-write or merge-on-read");
}

}  // namespace databox::iceberg
