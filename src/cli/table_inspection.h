// What `databox inspect NAMESPACE.TABLE` prints: the table's identity (format version, UUID,
// location, metadata file), its layout (partition specs and sort order with source column names,
// properties), the live files' sizes, the current schema, every snapshot of main with its time
// and summary counters, and the live data and position delete files. Pure functions of what
// cmd_inspect.cc reads (metadata, history, live files, the row count), so tests give them
// values instead of loading tables. In JSON, snapshot ids beyond 2^53 are strings
// (common/json_integer.h).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "iceberg/metadata/snapshot.h"
#include "iceberg/metadata/table_metadata.h"
#include "iceberg/table.h"

namespace databox::cli {

//! Everything `databox inspect` shows about one table.
struct TableInspection {
  std::string table;  //!< "raw_usgs.sites"
  std::string metadata_location;
  iceberg::TableMetadata metadata;
  std::vector<iceberg::Snapshot> history;  //!< main's snapshots, newest first
  iceberg::LiveFiles live;                 //!< of main's current snapshot
  int64_t rows = -1;                       //!< live rows (after deletes); -1 when not counted
};

//! "day(observed)" for a transform of the column `column`.
std::string TransformText(const std::string& transform, const std::string& column);

std::string FormatInspection(const TableInspection& inspection);
nlohmann::ordered_json InspectionJson(const TableInspection& inspection);

}  // namespace databox::cli
