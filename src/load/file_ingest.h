// `databox ingest`: files (NDJSON, CSV, Parquet; gzip or zstd compressed) loaded into one raw
// table raw_<name>.<table>, the way a source load commits. Each file is read and normalized by
// the streamed NDJSON normalizer (stream_ingest.h; CSV and Parquet are turned into NDJSON by
// DuckDB first, ingest_input.h). For append and replace the batches are written to data files as
// they arrive (streamed_files.h: memory is bounded by the batches in flight, not by the input);
// for merge they are staged in DuckDB until the end, where deduplication and the merge run SQL
// over them. The source load's TablePlanner plans the tables with the given write disposition
// and primary key, and they are committed with their _dlt_loads and _dlt_load_status rows in one
// catalog transaction (load_commit.h). Nothing is committed when a file cannot be read or a
// record is rejected: the error names the file and line (data files already written are deleted).
//
// An ingest takes the lock of <name> like a load of a source of that name, and keeps a load
// package under <state_dir>/loads/<name>/ (docs/load_package.md) holding its scratch files until
// the package is settled away; it is never resumable.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "common/error.h"
#include "load/ingest_input.h"
#include "load/source_load.h"
#include "load/workspace.h"
#include "registry/model.h"

namespace databox::load {

//! Progress of an ingest, called on the ingesting thread after each file and at the commit.
struct IngestProgress {
  std::string file;     //!< the file just read ("" at the commit)
  int64_t records = 0;  //!< records read so far, over every file
  int64_t bytes = 0;    //!< NDJSON bytes read so far
  double seconds = 0;   //!< since the ingest started
  bool commit = false;  //!< the commit starts
  //! Normalized rows held in memory, not yet written to data files: for append and replace the
  //! batches queued for the streamed writers (bounded, whatever the input size), for merge every
  //! row staged so far.
  int64_t rows_held = 0;
};

struct IngestRequest {
  std::vector<std::filesystem::path> files;
  //! Target table as "raw_<name>.<table>"; both parts lower-case snake_case.
  std::string table;
  std::optional<IngestFormat> format;  //!< unset: told by each file's name
  registry::WriteDisposition disposition = registry::WriteDisposition::kAppend;
  std::vector<std::string> primary_key;  //!< required for merge
  //! How a merge removes the rows it replaces; unset: the table's write.merge.mode.
  std::optional<registry::MergeMode> merge_mode;
  //! The partition spec and sort order of the table: a new table is created with them, an
  //! existing one gets them as a new spec (or order) when they differ from its own
  //! (layout_evolution.h); empty keeps the table's. Checked against the input's columns.
  std::vector<registry::PartitionTerm> partition;
  std::vector<registry::SortTerm> sort;
  std::optional<std::string> load_id;  //!< tests: use this load id
  std::size_t workers = 0;             //!< normalizer threads; 0: one per core
  std::size_t batch_rows = 50'000;     //!< rows per normalized batch
  std::function<void(const IngestProgress&)> on_progress;
};

//! Splits "raw_<name>.<table>" into <name> and <table>; kConfig saying what is wrong.
Result<std::pair<std::string, std::string>> ParseIngestTable(const std::string& table);

//! Checks the request without reading any file: the table name, every file's format, merge with
//! a primary key. kConfig / kNotFound naming the problem.
Status CheckIngestRequest(const IngestRequest& request);

//! Loads the files into the table; the result lists the table and the two system tables.
Result<SourceLoadResult> IngestFiles(Workspace& workspace, const IngestRequest& request);

}  // namespace databox::load
