// CSV and Parquet inputs of `databox ingest` (append and replace) written straight into the raw
// table's data files: DuckDB reads each file (read_csv with its own type detection, or
// read_parquet) and one COPY per file writes the rows, columns renamed as the normalizer would
// name them (snake_case) and _dlt_load_id/_dlt_id added, without turning the rows into NDJSON
// text for the normalizer. Types are kept as DuckDB reads them (an integer column is bigint, a
// timestamp column timestamp). Only flat rows whose types map to dlt's go this way; for the
// others (nested Parquet columns, a type the table already has otherwise, ...) the describe or
// write step answers nullopt before anything is written, and the caller normalizes the file.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "common/error.h"
#include "duck/connection.h"
#include "fileio/file_io.h"
#include "load/ingest_input.h"
#include "load/streamed_files.h"
#include "normalize/table_schema.h"

namespace databox::load {

//! One input as DuckDB reads it, in the raw table's terms.
struct DirectInput {
  std::filesystem::path file;  //!< as given: errors name it
  IngestFormat format = IngestFormat::kCsv;
  normalize::TableSchema schema;  //!< its columns in file order, then _dlt_load_id, _dlt_id
  std::string select;             //!< its rows with the columns `schema` names
};

//! Registers the function the inputs' SELECTs call for each row's _dlt_id (a random base64 id,
//! as the normalizer gives) on `conn`'s database.
Status RegisterDltIdFunction(duck::Connection& conn);

//! Describes `plain` (the decompressed `file`, CSV or Parquet) as rows of raw table `table` of
//! `resource` loaded under `load_id`; nullopt when its rows do not fit a flat table: a nested or
//! unsupported column type, two columns with one snake_case name, a column named like a dlt
//! column. A file DuckDB cannot read is an error naming `file`.
Result<std::optional<DirectInput>> DescribeDirectInput(
    duck::Connection& conn, const std::filesystem::path& file, const std::filesystem::path& plain,
    IngestFormat format, const std::string& table, const std::string& resource,
    const std::string& load_id);

//! Writes every input's rows as data files of one table (not committed): its metadata is
//! `target`'s grown by the inputs' columns. nullopt, with nothing written, when the inputs do
//! not fit together or the table (a column typed otherwise). `after_file` (may be empty) is
//! called after each input with its index and rows. On an error the files written so far are
//! deleted; the error names the input.
Result<std::optional<WrittenTable>> WriteDirectInputs(
    duck::Connection& conn, fileio::FileIO& io, const std::vector<DirectInput>& inputs,
    const TargetFor& target, const std::function<void(std::size_t, int64_t)>& after_file);

}  // namespace databox::load
