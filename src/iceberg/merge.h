// Copy-on-write row changes: merge (upsert on the identifier fields) and delete by predicate.
// Both read only the live files that can hold affected rows, rewrite those files' surviving
// rows (plus, for merge, the incoming rows) with DuckDB, and return an overwrite operation
// that removes the affected files and adds the new ones in ONE snapshot. Commit it with
// op->Commit(catalog); if a concurrent commit removed an affected file, the commit fails with
// kConflict and the operation must be prepared again.
#pragma once

#include <memory>
#include <string>

#include "duck/connection.h"
#include "iceberg/data_files.h"
#include "iceberg/table_operations.h"
#include "iceberg/table_scan.h"

namespace databox::iceberg {

struct RowChangeOptions {
  DataFileWriteOptions write;  //!< how new data files are written
  SnapshotChange snapshot;     //!< branch, load id, extra summary, manifest merging
};

//! Upserts the rows of `incoming_sql` into `table` by its identifier fields (top-level,
//! required). Incoming keys must be unique. Candidate files are those whose key bounds overlap
//! the incoming key range; of these, only files that really contain an incoming key are
//! rewritten (without the matched rows); the incoming rows are added.
Result<std::unique_ptr<SnapshotOperation>> PrepareMerge(duck::Connection& conn, const Table& table,
                                                        const std::string& incoming_sql,
                                                        const RowChangeOptions& options = {});

//! Deletes the rows for which `predicate_sql` (a DuckDB expression over the table's columns)
//! is true. Files without such rows are kept (DuckDB skips row groups by their Parquet
//! statistics while looking).
Result<std::unique_ptr<SnapshotOperation>> PrepareDeleteWhere(duck::Connection& conn,
                                                              const Table& table,
                                                              const std::string& predicate_sql,
                                                              const RowChangeOptions& options = {});

}  // namespace databox::iceberg
