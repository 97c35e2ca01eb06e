// Reading a table's rows with DuckDB: a SELECT over its live Parquet files.
//
// ReadSql reads the live Parquet files with read_parquet(..., union_by_name = true) and
// projects them onto the current schema by column NAME: added columns read as NULL from older
// files and widened types are cast, but renamed columns are not followed (we never rename).
// Rows that live position delete files remove (merge-on-read) are left out: the scan then
// carries each row's file and row number (read_parquet's filename and file_row_number) and
// anti-joins the (file_path, pos) pairs of the delete files. A table with a column named
// file_row_number cannot be read that way (DuckDB refuses the option); it gets a kData error.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "common/error.h"
#include "iceberg/manifest/manifest.h"
#include "iceberg/spec/schema.h"
#include "iceberg/table.h"

namespace databox::iceberg {

//! Column names the position-aware scan adds (see FilesReadSql's `positions`): the path
//! read_parquet opened (DuckPathOf the location) and the row's position in that file.
inline constexpr const char* kScanFileColumn = "__databox_file";
inline constexpr const char* kScanPosColumn = "file_row_number";

//! A SELECT of the rows of `ref` of `table`, with its current schema's columns.
Result<std::string> ReadSql(const Table& table, std::string_view ref = kMainBranch);

//! A SELECT over `files` projected onto `schema`, without the rows `deletes` remove (see the
//! file comment). read_parquet gets local paths for file:// locations and the location itself
//! otherwise. With `positions`, two more columns follow: kScanFileColumn and kScanPosColumn.
Result<std::string> FilesReadSql(const Schema& schema, std::span<const DataFile> files,
                                 std::span<const DataFile> deletes = {}, bool positions = false);

//! "(VALUES (path, location), ...) AS <alias>(path, location)": the path read_parquet opens
//! for each of `files` and its location.
Result<std::string> PathLocationsSql(std::span<const DataFile> files, const std::string& alias);

//! The path DuckDB should open for a data file location.
Result<std::string> DuckPathOf(const std::string& location);

}  // namespace databox::iceberg
