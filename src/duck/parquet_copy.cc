#include "duck/parquet_copy.h"

#include <array>
#include <charconv>
#include <string>

#include "common/ascii.h"
#include "duck/prepared_statement.h"
#include "duck/quote.h"

namespace databox::duck {
namespace {

constexpr std::array<std::string_view, 7> kCodecs = {"uncompressed", "snappy",  "gzip",  "zstd",
                                                     "lz4",          "lz4_raw", "brotli"};

void RenderNode(const FieldIdNode& node, std::string& out) {
  out += QuoteIdentifier(node.name);
  out += ": ";
  if (node.children.empty()) {
    out += std::to_string(node.id);
    return;
  }
  out += "{__duckdb_field_id: " + std::to_string(node.id);
  for (const auto& child : node.children) {
    out += ", ";
    RenderNode(child, out);
  }
  out += "}";
}

std::string JoinPath(const std::vector<std::string>& path) {
  std::string out;
  for (const auto& part : path) {
    if (!out.empty()) out += ".";
    out += part;
  }
  return out;
}

std::optional<uint64_t> ParseUnsigned(const std::map<std::string, std::string>& raw,
                                      const std::string& key) {
  auto it = raw.find(key);
  if (it == raw.end()) return std::nullopt;
  uint64_t value = 0;
  const auto& text = it->second;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::optional<std::string> Find(const std::map<std::string, std::string>& raw,
                                const std::string& key) {
  auto it = raw.find(key);
  if (it == raw.end()) return std::nullopt;
  return it->second;
}

Result<std::string> BuildCopySql(const std::string& select_sql, const std::string& destination,
                                 const ParquetCopyOptions& options) {
  const std::string codec = AsciiLower(options.compression);
  bool known = false;
  for (auto k : kCodecs) known = known || k == codec;
  if (!known) {
    return MakeError(ErrorKind::kConfig, "unknown Parquet compression '" + options.compression +
                                             "': use one of zstd, snappy, gzip, lz4, lz4_raw, "
                                             "brotli, uncompressed");
  }
  std::string sql = "COPY (" + select_sql + ") TO " + QuoteLiteral(destination) +
                    " (FORMAT parquet, COMPRESSION " + codec;
  if (options.compression_level && codec == "zstd") {
    sql += ", COMPRESSION_LEVEL " + std::to_string(*options.compression_level);
  }
  if (options.row_group_size) sql += ", ROW_GROUP_SIZE " + std::to_string(*options.row_group_size);
  if (options.row_group_size_bytes) {
    sql += ", ROW_GROUP_SIZE_BYTES " + std::to_string(*options.row_group_size_bytes);
  }
  if (options.dictionary_size_limit) {
    sql += ", DICTIONARY_SIZE_LIMIT " + std::to_string(*options.dictionary_size_limit);
  }
  if (!options.field_ids.empty()) sql += ", FIELD_IDS " + RenderFieldIds(options.field_ids);
  if (options.file_size_bytes) {
    sql += ", FILE_SIZE_BYTES " + std::to_string(*options.file_size_bytes);
    if (!options.file_name_pattern.empty()) {
      sql += ", FILENAME_PATTERN " + QuoteLiteral(options.file_name_pattern);
    }
    if (options.overwrite) sql += ", OVERWRITE true";
  }
  if (!options.partition_by.empty()) {
    sql += ", PARTITION_BY (" + QuoteIdentifierList(options.partition_by) + ")";
    if (!options.file_name_pattern.empty()) {
      sql += ", FILENAME_PATTERN " + QuoteLiteral(options.file_name_pattern);
    }
  }
  sql += ", RETURN_STATS)";
  return sql;
}

//! One MAP(VARCHAR, VARCHAR) value as a std::map.
Result<std::map<std::string, std::string>> StringMap(const Value& map) {
  std::map<std::string, std::string> out;
  for (uint64_t i = 0; i < map.MapSize(); ++i) {
    DATABOX_ASSIGN_OR_RETURN(Value key, map.MapKey(i));
    DATABOX_ASSIGN_OR_RETURN(Value value, map.MapValue(i));
    if (!value.IsNull()) out[key.ToString()] = value.ToString();
  }
  return out;
}

Result<ParquetFileStats> ReadFileStats(const QueryResult& result, uint64_t row) {
  DATABOX_ASSIGN_OR_RETURN(uint64_t filename_col, result.ColumnIndex("filename"));
  DATABOX_ASSIGN_OR_RETURN(uint64_t count_col, result.ColumnIndex("count"));
  DATABOX_ASSIGN_OR_RETURN(uint64_t size_col, result.ColumnIndex("file_size_bytes"));
  DATABOX_ASSIGN_OR_RETURN(uint64_t footer_col, result.ColumnIndex("footer_size_bytes"));
  DATABOX_ASSIGN_OR_RETURN(uint64_t stats_col, result.ColumnIndex("column_statistics"));

  ParquetFileStats file;
  DATABOX_ASSIGN_OR_RETURN(file.path, result.GetString(filename_col, row));
  DATABOX_ASSIGN_OR_RETURN(int64_t count, result.GetInt64(count_col, row));
  DATABOX_ASSIGN_OR_RETURN(int64_t size, result.GetInt64(size_col, row));
  file.record_count = static_cast<uint64_t>(count);
  file.file_size_bytes = static_cast<uint64_t>(size);
  if (!result.IsNull(footer_col, row)) {
    DATABOX_ASSIGN_OR_RETURN(int64_t footer, result.GetInt64(footer_col, row));
    file.footer_size_bytes = static_cast<uint64_t>(footer);
  }
  if (auto keys_col = result.ColumnIndex("partition_keys");
      keys_col && !result.IsNull(*keys_col, row)) {
    DATABOX_ASSIGN_OR_RETURN(Value keys, result.GetValue(*keys_col, row));
    for (uint64_t i = 0; i < keys.MapSize(); ++i) {
      DATABOX_ASSIGN_OR_RETURN(Value key, keys.MapKey(i));
      DATABOX_ASSIGN_OR_RETURN(Value value, keys.MapValue(i));
      file.partition_keys[key.ToString()] =
          value.IsNull() ? std::nullopt : std::optional<std::string>(value.ToString());
    }
  }
  if (result.IsNull(stats_col, row)) return file;
  DATABOX_ASSIGN_OR_RETURN(Value stats, result.GetValue(stats_col, row));
  for (uint64_t i = 0; i < stats.MapSize(); ++i) {
    DATABOX_ASSIGN_OR_RETURN(Value key, stats.MapKey(i));
    DATABOX_ASSIGN_OR_RETURN(Value entry, stats.MapValue(i));
    ParquetColumnStats column;
    DATABOX_ASSIGN_OR_RETURN(column.path, ParseStatsColumnKey(key.ToString()));
    if (!entry.IsNull()) {
      DATABOX_ASSIGN_OR_RETURN(column.raw, StringMap(entry));
    }
    column.min = Find(column.raw, "min");
    column.max = Find(column.raw, "max");
    column.null_count = ParseUnsigned(column.raw, "null_count");
    column.num_values = ParseUnsigned(column.raw, "num_values");
    column.column_size_bytes = ParseUnsigned(column.raw, "column_size_bytes");
    if (auto nan = Find(column.raw, "has_nan")) column.has_nan = *nan == "true";
    file.columns[JoinPath(column.path)] = std::move(column);
  }
  return file;
}

}  // namespace

std::string RenderFieldIds(std::span<const FieldIdNode> fields) {
  std::string out = "{";
  for (size_t i = 0; i < fields.size(); ++i) {
    if (i > 0) out += ", ";
    RenderNode(fields[i], out);
  }
  out += "}";
  return out;
}

Result<std::vector<std::string>> ParseStatsColumnKey(std::string_view key) {
  std::vector<std::string> parts;
  size_t i = 0;
  while (i < key.size()) {
    std::string part;
    if (key[i] == '"') {
      ++i;
      bool closed = false;
      while (i < key.size()) {
        if (key[i] == '"') {
          if (i + 1 < key.size() && key[i + 1] == '"') {
            part.push_back('"');
            i += 2;
            continue;
          }
          ++i;
          closed = true;
          break;
        }
        part.push_back(key[i++]);
      }
      if (!closed) {
        return MakeError(ErrorKind::kData,
                         "unterminated quote in Parquet stats column key " + std::string(key));
      }
    } else {
      while (i < key.size() && key[i] != '.') part.push_back(key[i++]);
    }
    parts.push_back(std::move(part));
    if (i < key.size()) {
      if (key[i] != '.') {
        return MakeError(ErrorKind::kData,
                         "unexpected character in Parquet stats column key " + std::string(key));
      }
      ++i;
    }
  }
  if (parts.empty()) return MakeError(ErrorKind::kData, "empty Parquet stats column key");
  return parts;
}

Result<std::vector<ParquetFileStats>> CopyToParquet(Connection& conn, const std::string& select_sql,
                                                    const std::string& destination,
                                                    const ParquetCopyOptions& options) {
  ParquetCopyOptions effective = options;
  if (effective.row_group_size_bytes) {
    // DuckDB refuses the option on a connection that keeps insertion order.
    DATABOX_ASSIGN_OR_RETURN(auto ordered,
                             conn.Query("SELECT current_setting('preserve_insertion_order')"));
    DATABOX_ASSIGN_OR_RETURN(bool keeps_order, ordered.GetBool(0, 0));
    if (keeps_order) effective.row_group_size_bytes.reset();
  }
  DATABOX_ASSIGN_OR_RETURN(std::string sql, BuildCopySql(select_sql, destination, effective));
  // Written on DuckDB's threads while, in a load, normalizers share the cores: no spinning.
  auto statement = conn.Prepare(sql);
  auto result = statement ? statement->QueryWithoutSpinning()
                          : Result<QueryResult>(std::unexpected(statement.error()));
  if (!result) {
    return std::unexpected(result.error().WithContext("writing Parquet to " + destination));
  }
  std::vector<ParquetFileStats> files;
  for (uint64_t row = 0; row < result->row_count(); ++row) {
    auto file = ReadFileStats(*result, row);
    if (!file) {
      return std::unexpected(
          file.error().WithContext("reading the statistics of Parquet written to " + destination));
    }
    files.push_back(std::move(*file));
  }
  return files;
}

}  // namespace databox::duck
