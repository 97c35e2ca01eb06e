// Writing rows to Iceberg data files: DuckDB COPY to Parquet with the table's field ids,
// then the per-file statistics DuckDB returns turned into manifest DataFile entries.
//
// Layout: <table location>/data/[<partition path>/]<write uuid>-<n>.parquet. DuckDB writes into
// a private staging folder (inside data/ for a local table, under the staging folder for a
// remote one) and each finished file is then published under its final name (a rename for a
// local table, FileIO::UploadFile for s3://), so readers never see a partial data file.
//
// Bounds: every primitive column outside lists and maps gets lower/upper bounds in the
// single-value binary form. Strings longer than kStringBoundLength bytes get Iceberg Java's
// convention: the lower bound is a prefix, the upper bound a prefix whose last code point is
// incremented (omitted when no code point can be). Binary/fixed bounds longer than that are
// omitted. Float bounds are omitted when DuckDB reports NaN in the column.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/error.h"
#include "duck/connection.h"
#include "duck/parquet_copy.h"
#include "fileio/file_io.h"
#include "iceberg/manifest/manifest.h"
#include "iceberg/metadata/table_metadata.h"
#include "iceberg/spec/partition_spec.h"
#include "iceberg/spec/schema.h"

namespace databox::iceberg {

//! Bytes of a string bound before it is truncated (Iceberg Java's default metrics length).
inline constexpr size_t kStringBoundLength = 16;

struct DataFileWriteOptions {
  //! Start a new file once the current one reaches this many compressed bytes.
  uint64_t target_file_size_bytes = 256ull << 20;
  std::string compression = "zstd";  //!< Parquet codec
  //! A row group is written once its rows take this many bytes in memory (the table property
  //! write.parquet.row-group-size-bytes; Iceberg's default is 128 MB). Each table being written
  //! holds up to one such row group per writing thread: 32 MB keeps a load of wide records with
  //! several child tables flat in memory (docs/benchmarks.md, (f)). Followed where the
  //! connection does not preserve insertion order (duck::ParquetCopyOptions).
  uint64_t row_group_size_bytes = 32ull << 20;
  //! zstd level (DuckDB offers levels for no other codec). 1 is what pyiceberg writes by
  //! default (pyarrow's zstd default); Iceberg Java writes 3, which makes files of repetitive
  //! data smaller and costs ~10 % of the ingest's CPU (docs/benchmarks.md).
  int compression_level = 1;
  //! Most distinct values per column chunk that get a dictionary. Low-cardinality columns
  //! (codes, names, list positions) stay dictionary-encoded; columns of near-unique values
  //! (dlt's row ids, parent ids, timestamps) are written plain, which DuckDB does with less
  //! work and, under zstd, into smaller files than its default limit (docs/benchmarks.md).
  std::optional<uint64_t> dictionary_size_limit = 1000;
  //! Local folder DuckDB writes into before upload when the table is not local;
  //! the system temp folder when empty.
  std::string staging_dir;
};

//! Table properties that set how data files are written (Iceberg's names; other engines
//! writing the table follow them too).
inline constexpr char kCompressionCodecProperty[] = "write.parquet.compression-codec";
inline constexpr char kCompressionLevelProperty[] = "write.parquet.compression-level";
inline constexpr char kTargetFileSizeProperty[] = "write.target-file-size-bytes";
inline constexpr char kRowGroupSizeBytesProperty[] = "write.parquet.row-group-size-bytes";

//! `options` with what the table's properties set: codec, zstd level, target file size, row
//! group size in bytes. A value
//! that is not a number, or a level or size out of range, is a kConfig error naming the
//! property; an unknown codec is one when the files are written.
Result<DataFileWriteOptions> WithTableProperties(const TableMetadata& metadata,
                                                 DataFileWriteOptions options);

//! The DuckDB type that holds values of an Iceberg type ("BIGINT", "STRUCT(\"x\" INTEGER)").
std::string DuckTypeOf(const Type& type);

//! The FIELD_IDS tree of a schema (struct fields, list "element", map "key"/"value").
std::vector<duck::FieldIdNode> FieldIdsOf(const Schema& schema);

//! A SELECT over `select_sql` whose columns are exactly the schema's top-level columns, in
//! order, cast to their types; schema columns missing from the input become NULL. Input
//! columns that are not in the schema are a kData error (evolve the schema first).
Result<std::string> ProjectToSchema(duck::Connection& conn, const Schema& schema,
                                    const std::string& select_sql);

//! The DataFile for one written file: record count, size and the column statistics mapped to
//! field ids. `location` is where the file is published; `partition` its partition tuple.
Result<DataFile> DataFileFromStats(const duck::ParquetFileStats& stats, const Schema& schema,
                                   std::string location,
                                   std::vector<std::optional<Literal>> partition);

//! Lower / upper bound of a string column truncated to `max_bytes` at a UTF-8 boundary;
//! the upper bound is nullopt when it cannot be truncated (see the file comment).
std::string TruncateLowerBound(std::string_view value, size_t max_bytes);
std::optional<std::string> TruncateUpperBound(std::string_view value, size_t max_bytes);

//! Writes the rows of `sql` (columns exactly `schema`'s, in order) through DuckDB into a
//! staging folder and publishes the files under `folder_location` with the partition tuple
//! `partition`; returns their DataFiles (content data: the caller may change it).
Result<std::vector<DataFile>> WriteFileGroup(duck::Connection& conn, fileio::FileIO& io,
                                             const Schema& schema, const std::string& sql,
                                             const std::string& folder_location,
                                             std::vector<std::optional<Literal>> partition,
                                             const DataFileWriteOptions& options = {});

//! Writes the rows of `select_sql` as data files of the table whose metadata is `metadata`
//! (current schema, default spec), with `options` as the table's properties leave them
//! (WithTableProperties). A partitioned table's rows are split by one DuckDB COPY partitioned by
//! the spec's values (partition_sql.h, every transform): each partition tuple gets its files
//! under data/<field>=<value>/..., one file per partition unless it exceeds the target file
//! size, in which case it is split into files of that size. When the table's default sort order
//! is not the unsorted one, every file holds its rows in that order (sort_sql.h): an
//! unpartitioned write sorts all its rows in one COPY, a partitioned one rewrites each
//! partition's files sorted after the partitioned COPY. Returns one DataFile per written
//! file (none for an empty input), with its partition tuple. Nothing is committed.
Result<std::vector<DataFile>> WriteDataFiles(duck::Connection& conn, fileio::FileIO& io,
                                             const TableMetadata& metadata,
                                             const std::string& select_sql,
                                             const DataFileWriteOptions& options = {});

}  // namespace databox::iceberg
