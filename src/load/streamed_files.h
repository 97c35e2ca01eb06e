// Normalized batches written to Iceberg data files as they arrive: each table's batches go over
// a bounded queue (StreamedTable) that one Parquet COPY per table (iceberg::WriteDataFiles over
// the databox_scan of the queue), started at the table's first batch on a thread and DuckDB
// connection of its own, reads and frees as it goes, rolling over to a new file at the table's
// target file size. Memory is the queues plus DuckDB's row-group buffers, whatever the input
// size. Nothing is committed: the caller commits the files (table_plan.h).
//
// A table whose schema grows (a batch with columns its COPY was not started with) gets its
// current COPY ended and a new one started with the grown schema: the table's metadata gets the
// union of its schema and the grown one (new columns get fresh field ids), so the earlier files
// are still valid under the final schema (they lack the new columns, read as null).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "common/error.h"
#include "duck/chunk_scan.h"
#include "duck/database.h"
#include "fileio/file_io.h"
#include "iceberg/manifest/manifest.h"
#include "iceberg/metadata/table_metadata.h"
#include "load/streamed_table.h"
#include "normalize/column_batch.h"
#include "normalize/table_schema.h"

namespace databox::load {

//! One table's files, written and not committed.
struct WrittenTable {
  normalize::TableSchema schema;    //!< the normalizer's latest schema of the table
  iceberg::TableMetadata metadata;  //!< the metadata its last files were written under
  bool create = false;              //!< metadata prepared for a table that did not exist
  std::vector<iceberg::DataFile> files;
  int64_t rows = 0;
};

//! Deletes `table`'s files (a load that will not commit them: nothing refers to them) and, for a
//! table the load would have created, the folders they leave empty.
void DiscardWritten(fileio::FileIO& io, const WrittenTable& table);

//! Where a table's files go: the metadata of an existing table, or one prepared for a new
//! table, with at least the columns of `schema` (its first batch's); `create` says which.
struct TableTarget {
  iceberg::TableMetadata metadata;
  bool create = false;
};
using TargetFor = std::function<Result<TableTarget>(const normalize::TableSchema& schema)>;

//! `metadata` with its current schema grown to the union (by name) of it and `incoming`
//! (iceberg::UnionByName: new columns get ids above its last column id); `metadata` itself when
//! `incoming` adds nothing.
Result<iceberg::TableMetadata> WithGrownSchema(const iceberg::TableMetadata& metadata,
                                               const iceberg::Schema& incoming);

class StreamedFiles {
 public:
  struct Options {
    std::size_t queue_batches = 2;  //!< batches waiting per table before Push waits
    std::size_t scan_threads = 1;   //!< DuckDB threads reading each table's queue
  };

  //! `db` and `io` must outlive this; `target` is called on this thread at each table's first
  //! batch.
  StreamedFiles(duck::Database& db, fileio::FileIO& io, TargetFor target, Options options);
  StreamedFiles(const StreamedFiles&) = delete;
  StreamedFiles& operator=(const StreamedFiles&) = delete;
  //! Stops the COPYs still running (Finish was not reached) and deletes the files they wrote.
  ~StreamedFiles();

  //! Hands a batch to its table's COPY (started at the table's first batch; restarted with
  //! the grown schema when the batch has new columns). Waits while the table's queue is full.
  //! A COPY that failed makes this fail with its error.
  Status Push(normalize::TableBatch batch);
  //! No more batches: waits for every COPY; the tables by name.
  Result<std::map<std::string, WrittenTable>> Finish();

  //! Rows pushed and not yet freed (read by DuckDB), over every table.
  int64_t held_rows() const;
  //! Seconds of the longest COPY so far (they run at once).
  double copy_seconds() const { return copy_seconds_; }

 private:
  struct Writer {
    std::unique_ptr<StreamedTable> rows;
    std::unique_ptr<duck::ChunkScan> scan;
    std::future<Result<std::vector<iceberg::DataFile>>> files;
    double seconds = 0;  //!< the COPY's wall time, set by its thread
  };
  //! Starts a COPY of `out`'s table with `schema`'s columns under `out.metadata`.
  void Start(const normalize::TableSchema& schema, WrittenTable& out);
  //! Ends the table's COPY and adds its files to `out`.
  Status End(Writer& writer, WrittenTable& out);
  //! Ends every COPY without keeping its files (deleted).
  void Abandon();

  duck::Database& db_;
  fileio::FileIO& io_;
  TargetFor target_;
  Options options_;
  std::map<std::string, Writer> writers_;    //!< running COPYs, by table
  std::map<std::string, WrittenTable> out_;  //!< by table
  double copy_seconds_ = 0;
  bool finished_ = false;
};

}  // namespace databox::load
