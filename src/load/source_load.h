// One source load: extract -> normalize -> stage -> one atomic multi-table commit of the
// source's tables together with its _dlt_loads and _dlt_load_status rows.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "common/error.h"
#include "common/write_disposition.h"
#include "load/load_phase.h"
#include "load/workspace.h"
#include "registry/model.h"
#include "source/source.h"

namespace databox::load {

//! What happened to one raw table.
struct TableOutcome {
  std::string table;  //!< e.g. "raw_noaa.daily_weather"
  WriteDisposition disposition = WriteDisposition::kAppend;
  int64_t rows = 0;                    //!< rows this load wrote to it
  std::optional<int64_t> snapshot_id;  //!< the new snapshot (none when nothing was written)
};

//! The result of a successful source load.
struct SourceLoadResult {
  std::string source;
  std::string load_id;
  std::vector<TableOutcome> tables;  //!< data tables, then _dlt_loads and _dlt_load_status
  int64_t rows_loaded = 0;           //!< rows written to the source's data tables
  int64_t requests = 0;              //!< HTTP requests sent
  std::vector<std::string> notes;    //!< skipped-and-reported items (e.g. a failed day)
};

//! Progress callbacks (called on the loading thread): before each resource, after each response
//! while extracting, after each resource while normalizing, and when the commit starts.
struct LoadProgress {
  std::string source;
  Phase phase = Phase::kExtract;
  std::string resource;
  int64_t requests = 0;  //!< HTTP requests sent so far
  //! Records read so far: while extracting, those the responses held; from normalize on, those
  //! fed to the normalizer (after each resource's transform). Rows written can be fewer: a merge
  //! resource keeps one row per key of a load.
  int64_t records = 0;
};

struct SourceLoadOptions {
  //! Finish the newest uncommitted package of the source instead of fetching again.
  bool resume = false;
  //! Use this load id instead of a new one (tests, reproducible runs).
  std::optional<std::string> load_id;
  //! The options of `databox run` that the source's kind owns (source::Kind::RunOptions), for
  //! the kind to parse: e.g. a target list, or a local file to publish instead of downloading.
  source::KindOptions kind_options;
  //! A local file to publish instead of downloading: kind option source::kLocalFileOption.
  std::optional<std::filesystem::path> file;
  //! Rows buffered by the normalizer before they go to the data files' writers (append,
  //! replace) or to staging (merge). A few batches of this size are in memory at once, whatever
  //! the source's size (10,000 rows of wide records: ~200 MB peak; 50,000: ~250 MB).
  std::size_t flush_rows = 10000;
  std::function<void(const LoadProgress&)> on_progress;
};

//! Loads `source` into raw_<source>. Nothing is committed unless every resource was extracted
//! and normalized; the tables and the status rows are committed in one catalog transaction.
//! Errors name the source, the resource and (redacted) the request that failed.
Result<SourceLoadResult> LoadSource(Workspace& workspace, const registry::Source& source,
                                    const SourceLoadOptions& options = {});

}  // namespace databox::load
