// Normalized batches of one table handed to DuckDB while a query scans them (a
// duck::ChunkSource fed during the scan): a producer pushes batches, a Parquet COPY over the
// scan takes them in order, and each batch is freed as soon as DuckDB is done with it. Push
// waits while `capacity` batches are unread, so the rows held stay bounded whatever the length
// of the input, and one COPY can write a table's whole input into files of the target size.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <vector>

#include "common/error.h"
#include "duck/chunk_scan.h"
#include "normalize/column_batch.h"
#include "normalize/table_schema.h"

namespace databox::load {

class StreamedTable final : public duck::ChunkSource {
 public:
  //! Columns are `schema`'s, fixed for the life of the scan. `capacity` (at least 1): batches
  //! pushed and not yet taken by a scanning thread before Push waits. `scan_threads`: DuckDB
  //! threads that read at once (each holds one batch while it reads it).
  StreamedTable(normalize::TableSchema schema, std::size_t capacity, std::size_t scan_threads);

  //! Hands over a batch of the table, waiting while `capacity` batches are unread. A batch with
  //! columns the scan was not started with is a kInternal error (the caller starts another
  //! scan with the grown schema); so is a push after Close, or after Cancel (nobody reads any
  //! more: the reading query's own error says why).
  Status Push(normalize::TableBatch batch);
  //! No more batches: the scan ends once the pushed ones are read.
  void Close();
  //! The reading query ended (normally or not): pushes fail from now on instead of waiting.
  void Cancel();

  const normalize::TableSchema& schema() const { return schema_; }
  //! Rows pushed so far.
  int64_t rows() const;
  //! Batches pushed and not yet released by DuckDB (for tests and progress).
  std::size_t held_batches() const;
  //! Rows of those batches.
  int64_t held_rows() const;

  const std::vector<std::string>& column_names() const override { return names_; }
  const std::vector<duckdb_type>& column_types() const override { return types_; }
  std::size_t part_count() const override;
  uint64_t part_rows(std::size_t part) const override;
  Status Fill(std::size_t part, uint64_t begin, uint64_t count,
              duck::DataChunk& chunk) const override;
  bool WaitForPart(std::size_t part) const override;
  void ReleasePart(std::size_t part) const override;
  std::size_t max_scan_threads() const override { return scan_threads_; }
  bool complete() const override;

 private:
  const normalize::TableSchema schema_;
  std::vector<std::string> names_;
  std::vector<duckdb_type> types_;
  const std::size_t capacity_;
  const std::size_t scan_threads_;

  mutable std::mutex mutex_;
  mutable std::condition_variable changed_;
  //! Every batch pushed, by part number; a released one is emptied (its rows freed). A deque:
  //! pushing moves no batch, so the thread that waited for a part reads it outside the lock.
  mutable std::deque<normalize::TableBatch> batches_;
  std::deque<uint64_t> part_rows_;  //!< rows of each part, kept after release
  mutable std::size_t taken_ = 0;   //!< parts some thread has waited for (and got)
  mutable std::size_t held_ = 0;    //!< parts pushed and not released
  mutable int64_t held_rows_ = 0;   //!< their rows
  int64_t rows_ = 0;
  bool closed_ = false;
  bool cancelled_ = false;
};

}  // namespace databox::load
