// Rows held in our own memory, scanned by DuckDB as a table function: a query (typically a
// Parquet COPY) reads them chunk by chunk, in parallel, without first appending them to a
// DuckDB table. A source may also be fed while the query runs (parts arrive over time and are
// released once read), so a query can consume a stream of any length in bounded memory.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "common/error.h"
#include "duck/connection.h"
#include "duck/data_chunk.h"
#include "duckdb.h"

namespace databox::duck {

//! Rows DuckDB can scan, split into parts; DuckDB's threads take parts one at a time, so
//! different parts are filled concurrently. Implementations must allow that.
class ChunkSource {
 public:
  virtual ~ChunkSource() = default;
  //! Column names, in order.
  virtual const std::vector<std::string>& column_names() const = 0;
  //! Column types, as DataChunk::Make accepts them (no parameterized types).
  virtual const std::vector<duckdb_type>& column_types() const = 0;
  virtual std::size_t part_count() const = 0;
  virtual uint64_t part_rows(std::size_t part) const = 0;
  //! Fills rows [begin, begin + count) of part `part` into `chunk` (count <= Capacity()); the
  //! caller sets the chunk's size. An error fails the query that scans the source. Values may
  //! be referenced rather than copied (DataChunk::ReferenceString): a part's values stay where
  //! they are until ReleasePart is called for it, or the query ends.
  virtual Status Fill(std::size_t part, uint64_t begin, uint64_t count, DataChunk& chunk) const = 0;

  // A source fed while it is scanned overrides the four below (they are called from DuckDB's
  // threads at once); the defaults describe a source complete before the query starts.

  //! Blocks until part `part` exists (true) or the source will never have it (false). Parts
  //! are waited for in increasing order of their number, one part per scanning thread.
  virtual bool WaitForPart(std::size_t part) const { return part < part_count(); }
  //! The thread that read part `part` moved on: DuckDB no longer holds any of its values (the
  //! chunks filled from it went through the query), so the part may be freed. This holds for
  //! queries whose operators copy what they keep (a COPY, an aggregate, a join's build side, a
  //! materialized result); a streaming result keeps chunks as filled and must not read a source
  //! that frees parts.
  virtual void ReleasePart(std::size_t /*part*/) const {}
  //! Most DuckDB threads that scan at once (DuckDB caps it at its own thread count).
  virtual std::size_t max_scan_threads() const { return part_count() == 0 ? 1 : part_count(); }
  //! Whether the rows of the parts known now are all the rows (the query planner's estimate).
  virtual bool complete() const { return true; }
};

//! Makes the table function `databox_scan(handle BIGINT)` available in `conn`'s database.
//! Calling it again for the same database does nothing.
Status RegisterChunkScan(Connection& conn);

//! `source` is scannable as `relation()` while this object lives (register the function on the
//! database first). The source must outlive every query that reads it.
class ChunkScan {
 public:
  explicit ChunkScan(const ChunkSource& source);
  ~ChunkScan();
  ChunkScan(const ChunkScan&) = delete;
  ChunkScan& operator=(const ChunkScan&) = delete;

  //! The FROM item that reads the source, e.g. "databox_scan(3)".
  std::string relation() const { return "databox_scan(" + std::to_string(handle_) + ")"; }

 private:
  int64_t handle_;
};

}  // namespace databox::duck
