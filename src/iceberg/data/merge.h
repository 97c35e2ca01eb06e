// Row changes: merge (upsert on the identifier fields) and delete by predicate. Both look only at
// the live files that can hold affected rows, and commit ONE snapshot, in one of two modes:
//   copy-on-write (the default): the affected files' surviving rows (plus, for merge, the
//     incoming rows) are rewritten with DuckDB; the snapshot removes the affected files (and the
//     delete files that pointed only at them) and adds the new ones;
//   merge-on-read: the affected rows' positions are written as position delete files, one per
//     affected data file; the snapshot adds them (and, for merge, the incoming rows) and removes
//     nothing. Cheap to write; readers pay for applying the deletes until the files are
//     rewritten. Needs format version 2 and every live data file under the default partition
//     spec (after a spec evolution, PrepareSpecRewrite moves the older files).
// The mode comes from RowChangeOptions::mode, else the table property write.merge.mode (merge)
// or write.delete.mode (delete): "copy-on-write" or "merge-on-read", as in Iceberg.
// Commit the operation with op->Commit(catalog); if a concurrent commit removed an affected
// file, the commit fails with kConflict and the operation must be prepared again.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "duck/connection.h"
#include "iceberg/commit/table_operations.h"
#include "iceberg/data/data_files.h"
#include "iceberg/table.h"

namespace databox::iceberg {

enum class RowChangeMode { kCopyOnWrite, kMergeOnRead };

inline constexpr const char* kMergeModeProperty = "write.merge.mode";
inline constexpr const char* kDeleteModeProperty = "write.delete.mode";

struct RowChangeOptions {
  DataFileWriteOptions write;         //!< how new data files are written
  SnapshotChange snapshot;            //!< branch, load id, extra summary, manifest merging
  std::optional<RowChangeMode> mode;  //!< unset: the table property (see the file comment)
};

//! Data files that position deletes apply to, and those delete files.
struct DeletedRowsSummary {
  std::vector<DataFile> data_files;    //!< live data files some live delete file may apply to
  std::vector<DataFile> delete_files;  //!< the live delete files
  int64_t positions = 0;               //!< rows the delete files list (an upper bound)
};

//! What merge-on-read has left on `ref` of `table` (nothing read but the manifests).
Result<DeletedRowsSummary> DeletedRows(const Table& table, std::string_view ref = kMainBranch);

//! Compaction of merge-on-read: rewrites every data file of the default partition spec that live
//! position deletes apply to, without the deleted rows, and removes the delete files that
//! pointed only at those files, in one "replace" snapshot (the table's rows do not change). The
//! new files are split by partition like any write: no file holds rows of two partitions. Files
//! under an earlier spec are left alone (PrepareSpecRewrite moves them). Nothing to do gives
//! nullptr.
Result<std::unique_ptr<SnapshotOperation>> PrepareDeleteRewrite(
    duck::Connection& conn, const Table& table, const RowChangeOptions& options = {});

//! Rewrites every live data file listed under an earlier partition spec than the default one
//! (without the rows live position deletes remove) as files of the default spec, split by its
//! partitions, and removes them and the delete files that pointed only at them, in one "replace"
//! snapshot (the rows do not change). Nothing to do gives nullptr.
Result<std::unique_ptr<SnapshotOperation>> PrepareSpecRewrite(duck::Connection& conn,
                                                              const Table& table,
                                                              const RowChangeOptions& options = {});

//! The mode the table property `property` asks for (copy-on-write when it is not set); kConfig
//! for any other value.
Result<RowChangeMode> RowChangeModeOf(const TableMetadata& metadata, const std::string& property);

//! Upserts the rows of `incoming_sql` into `table` by its identifier fields (top-level,
//! required). Incoming keys must be unique. Candidate files are those whose key bounds overlap
//! the incoming key range; of these, only files that really contain an incoming key are
//! changed (rewritten without the matched rows, or given position deletes for them); the
//! incoming rows are added.
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
