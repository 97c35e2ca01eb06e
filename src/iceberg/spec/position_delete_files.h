// Position delete files as the metadata sees them (table spec "Position Delete Files"): the
// reserved field ids and schema of their (file_path, pos) columns, and which data files a delete
// file applies to, told from its file_path bounds. Writing them is DuckDB's job
// (iceberg/data/position_deletes.h); commits, scans and maintenance only need this.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "iceberg/manifest/manifest.h"
#include "iceberg/spec/schema.h"

namespace databox::iceberg {

//! Reserved field ids of a position delete file's columns.
inline constexpr int32_t kDeleteFilePathFieldId = 2147483546;
inline constexpr int32_t kDeletePosFieldId = 2147483545;

//! The schema of a position delete file: file_path string, pos long (both required).
Schema PositionDeleteSchema();

//! The delete files among `deletes` that may remove rows of `data_file`: those whose file_path
//! bounds include its location (all of them when a file has no such bounds).
std::vector<DataFile> DeletesFor(const DataFile& data_file, std::span<const DataFile> deletes);
//! The single data file a position delete file points at, when its file_path bounds say so.
std::optional<std::string> ReferencedDataFile(const DataFile& delete_file);

}  // namespace databox::iceberg
