// What `databox catalog list` and `databox catalog describe` print about a table, read from its
// metadata alone (the current snapshot's summary counters), so listing a catalog reads no
// manifests and no data files. Pure functions of the metadata, tested without a catalog.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "iceberg/metadata/table_metadata.h"
#include "iceberg/spec/table_identifier.h"

namespace databox::cli {

//! One table as the catalog commands show it; counts are nullopt when the current snapshot's
//! summary does not carry them (or there is no snapshot).
struct TableSummary {
  std::string table;  //!< "raw_noaa.daily_weather"
  std::optional<int64_t> snapshot_id;
  std::string snapshot_time;                //!< ISO 8601 UTC, "" without a snapshot
  std::string operation;                    //!< of the current snapshot
  std::optional<int64_t> records;           //!< "total-records": rows in the data files
  std::optional<int64_t> position_deletes;  //!< "total-position-deletes"
  std::optional<int64_t> data_files;        //!< "total-data-files"
  std::optional<int64_t> delete_files;      //!< "total-delete-files"
  std::optional<int64_t> bytes;             //!< "total-files-size"
  std::string load_id;  //!< "databox.load-id" of the newest snapshot that has one
  int64_t snapshots = 0;
};

//! "2026-11-30T02:03:04.123Z" for milliseconds since the epoch.
std::string MillisToIso(int64_t millis);

TableSummary SummarizeTable(const iceberg::TableIdentifier& table,
                            const iceberg::TableMetadata& metadata);

//! `databox catalog list`: a header and one aligned line per table.
std::string FormatTableList(const std::vector<TableSummary>& tables);
nlohmann::ordered_json TableListJson(const std::vector<TableSummary>& tables);

//! The fields of `schema` (none for null) as `databox catalog describe` and `databox inspect` print
//! them: a header and an aligned line per field (id, name, type, required/optional, key), each
//! line indented by two spaces; and as JSON, one object per field.
std::string FormatSchemaFields(const iceberg::Schema* schema);
nlohmann::ordered_json SchemaFieldsJson(const iceberg::Schema* schema);

//! `databox catalog describe`: the summary, then format version, location, partition spec,
//! properties and the current schema.
std::string FormatTableDescription(const TableSummary& summary,
                                   const iceberg::TableMetadata& metadata,
                                   const std::string& metadata_location);
nlohmann::ordered_json TableDescriptionJson(const TableSummary& summary,
                                            const iceberg::TableMetadata& metadata,
                                            const std::string& metadata_location);

}  // namespace databox::cli
