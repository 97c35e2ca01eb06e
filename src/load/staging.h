// Staging: normalized rows land in DuckDB tables (one per raw table) before they are written
// as Parquet data files and committed. The staging tables follow the normalizer's schemas,
// which may grow between batches (new columns are added, never removed or retyped).
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "common/error.h"
#include "duck/connection.h"
#include "iceberg/spec/schema.h"
#include "normalize/column_batch.h"
#include "normalize/table_schema.h"

namespace databox::load {

//! DuckDB column type of a dlt data type (text -> VARCHAR, timestamp -> TIMESTAMPTZ, ...).
std::string DuckTypeFor(normalize::DataType type);

//! The Iceberg schema of a raw table: columns in order with ids 1..n, dlt types mapped as
//! docs/normalization.md says, primary-key columns required and identifier fields.
Result<iceberg::Schema> IcebergSchemaFor(const normalize::TableSchema& table);

//! One staged table.
struct StagedTable {
  normalize::TableSchema schema;  //!< the latest schema seen for the table
  std::string relation;           //!< qualified DuckDB name, e.g. "stage"."events"
  int64_t rows = 0;               //!< rows appended so far
};

class StagingArea {
 public:
  //! Stages into schema `schema_name` of `conn`'s database (created if missing). `conn` must
  //! outlive the staging area. Sets the database's force_compression to 'uncompressed': the
  //! database is meant for staging.
  static Result<StagingArea> Make(duck::Connection* conn, std::string schema_name);

  //! Appends a normalizer batch, creating the table or adding its new columns first.
  Status Append(const normalize::TableBatch& batch);

  //! Staged tables by raw table name.
  const std::map<std::string, StagedTable>& tables() const { return tables_; }

 private:
  StagingArea(duck::Connection* conn, std::string schema_name)
      : conn_(conn), schema_name_(std::move(schema_name)) {}
  Status EnsureColumns(const normalize::TableSchema& schema);

  duck::Connection* conn_;                     //!< not owned
  std::string schema_name_;                    //!< DuckDB schema holding the staging tables
  std::map<std::string, StagedTable> tables_;  //!< by raw table name
};

}  // namespace databox::load
