// Position delete files (table spec "Position Delete Files"): Parquet files of (file_path, pos)
// rows, each removing row `pos` (0-based) of the data file at `file_path`. Merge-on-read writes
// them instead of rewriting the data files.
//
// We write one delete file per data file, in that data file's folder and with its partition
// tuple, rows sorted by pos. Its file_path bounds are the full location (lower = upper), which
// is how readers (ours: DeletesFor, ReferencedDataFile; Iceberg Java) tell the single data file
// it points at; they are never truncated. Their schema and those bounds are the core's
// (iceberg/spec/position_delete_files.h).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "common/error.h"
#include "duck/connection.h"
#include "fileio/file_io.h"
#include "iceberg/data/data_files.h"
#include "iceberg/manifest/manifest.h"
#include "iceberg/spec/position_delete_files.h"
#include "iceberg/spec/schema.h"

namespace databox::iceberg {

//! Writes the (file_path, pos) rows of `positions_sql` (file_path = a data file's location) as
//! position delete files, one per data file. Every file_path must be among `data_files` (for
//! its folder and partition tuple). Returns the delete files, nothing committed.
Result<std::vector<DataFile>> WritePositionDeletes(duck::Connection& conn, fileio::FileIO& io,
                                                   std::span<const DataFile> data_files,
                                                   const std::string& positions_sql,
                                                   const DataFileWriteOptions& options = {});

}  // namespace databox::iceberg
