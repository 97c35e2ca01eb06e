// Writing query results to Parquet data files with Iceberg field ids, and reading back the
// per-file statistics DuckDB computes while writing (what Iceberg manifests need).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/error.h"
#include "duck/connection.h"

namespace databox::duck {

//! The field id of one column, and of its nested fields. A STRUCT's children are its fields; a
//! LIST has one child named "element"; a MAP has children "key" and "value".
struct FieldIdNode {
  std::string name{};                   //!< column or field name, exactly as in the query
  int32_t id = 0;                       //!< Iceberg field id
  std::vector<FieldIdNode> children{};  //!< nested fields; empty for primitives
};

//! The FIELD_IDS value for COPY: {a: 1, s: {__duckdb_field_id: 2, x: 3}} (names quoted).
std::string RenderFieldIds(std::span<const FieldIdNode> fields);

//! How CopyToParquet writes.
struct ParquetCopyOptions {
  //! Field ids for every column (may be empty: then the file has none).
  std::vector<FieldIdNode> field_ids{};
  //! uncompressed, snappy, gzip, zstd, lz4, lz4_raw or brotli.
  std::string compression = "zstd";
  //! zstd level (1-22); DuckDB's default (3) when unset. DuckDB has levels for no other codec:
  //! with another one this is not used.
  std::optional<int> compression_level{};
  //! Rows per row group; DuckDB's default (122880) when unset.
  std::optional<uint64_t> row_group_size{};
  //! A row group ends once its rows take this many bytes in memory (or row_group_size rows);
  //! DuckDB's default when unset. Not used on a connection that preserves insertion order
  //! (DuckDB refuses it there): the streamed writers of a load set preserve_insertion_order off.
  std::optional<uint64_t> row_group_size_bytes{};
  //! Most distinct values a column chunk is dictionary-encoded with; a column with more is
  //! written plain (DuckDB's DICTIONARY_SIZE_LIMIT; its default when unset).
  std::optional<uint64_t> dictionary_size_limit{};
  //! When set, `destination` is a directory and DuckDB starts a new file once the current one
  //! reaches this many (compressed) bytes. Files roll at row-group boundaries, so a file can
  //! exceed the target by up to one row group.
  std::optional<uint64_t> file_size_bytes{};
  //! With file_size_bytes: file names, "{i}" = sequence number, "{uuid}" = a random UUID
  //! (DuckDB's default "data_{i}"). Use "{uuid}" when several loads write into one directory.
  std::string file_name_pattern{};
  //! With file_size_bytes: replace a non-empty destination directory (else it is an error).
  bool overwrite = false;
  //! Columns of the query to partition by (DuckDB's PARTITION_BY): `destination` is a directory
  //! and every distinct tuple of these columns gets its own Hive-style folder and file(s),
  //! without the columns themselves (leave them out of field_ids). DuckDB cannot combine it
  //! with file_size_bytes. file_name_pattern names the files as with file_size_bytes.
  std::vector<std::string> partition_by{};
};

//! What DuckDB reported for one leaf column of one file.
struct ParquetColumnStats {
  std::vector<std::string> path;  //!< ["s", "x"] for field x of struct s
  //! Lower bound as DuckDB prints it; absent when all NULL. Strings over 256 bytes: a prefix.
  std::optional<std::string> min;
  //! Upper bound as DuckDB prints it; absent when all NULL. Strings over 256 bytes: a truncated
  //! prefix with its last byte incremented (still an upper bound, not a value).
  std::optional<std::string> max;
  std::optional<uint64_t> null_count;         //!< NULL values
  std::optional<uint64_t> num_values;         //!< values incl. NULLs (list elements for lists)
  std::optional<uint64_t> column_size_bytes;  //!< compressed size of the column chunks
  std::optional<bool> has_nan;                //!< floating-point columns only
  std::map<std::string, std::string> raw;     //!< every statistic as DuckDB returned it
};

//! One written Parquet file.
struct ParquetFileStats {
  std::string path;              //!< as DuckDB reports it
  uint64_t record_count = 0;     //!< rows in the file
  uint64_t file_size_bytes = 0;  //!< total file size
  uint64_t footer_size_bytes = 0;
  //! Leaf columns keyed by their path joined with "." ("s.x", "l.element", "m.key"). A name
  //! that itself contains "." makes the key ambiguous: use ParquetColumnStats::path then.
  std::map<std::string, ParquetColumnStats> columns;
  //! With partition_by: the file's value of each partition column as DuckDB casts it to text
  //! (nullopt for NULL).
  std::map<std::string, std::optional<std::string>> partition_keys;
};

//! Parses a RETURN_STATS column key such as "s"."x" (quoted, "" escapes) into its parts.
Result<std::vector<std::string>> ParseStatsColumnKey(std::string_view key);

//! Runs COPY (select_sql) TO destination (FORMAT parquet, ..., RETURN_STATS) and returns what
//! was written: one entry per file (one file unless options.file_size_bytes is set).
Result<std::vector<ParquetFileStats>> CopyToParquet(Connection& conn, const std::string& select_sql,
                                                    const std::string& destination,
                                                    const ParquetCopyOptions& options = {});

}  // namespace databox::duck
