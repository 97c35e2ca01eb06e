// Table: a loaded table with read helpers (live files, history) and factories for its
// operations. Used by merge/delete, recovery, tests and `databox inspect`. Reading its rows is
// DuckDB's job: iceberg/data/scan_sql.h (ReadSql) turns the live files into a SELECT.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "fileio/file_io.h"
#include "iceberg/commit/catalog.h"
#include "iceberg/commit/table_operations.h"
#include "iceberg/manifest/manifest.h"

namespace databox::iceberg {

//! The live files of a snapshot: data files and position delete files.
struct LiveFiles {
  std::vector<DataFile> data;
  std::vector<DataFile> deletes;
  //! The partition spec id of every live file (the spec of the manifest listing it), by path.
  std::map<std::string, int32_t> spec_ids;
};

//! The data files of `live` listed under another partition spec than `spec_id`.
std::vector<DataFile> DataFilesOutsideSpec(const LiveFiles& live, int32_t spec_id);

class Table {
 public:
  //! Loads `table` from `catalog` (which must outlive the Table).
  static Result<Table> Load(Catalog& catalog, std::shared_ptr<fileio::FileIO> io,
                            TableIdentifier table);
  //! The table as `loaded` (a read of `table` from `catalog` the caller already made) says.
  static Result<Table> Of(Catalog& catalog, std::shared_ptr<fileio::FileIO> io,
                          TableIdentifier table, LoadedTable loaded);
  //! Reloads the metadata from the catalog.
  Status Refresh();

  const TableIdentifier& identifier() const { return table_; }
  const TableMetadata& metadata() const { return loaded_.metadata; }
  const std::string& metadata_location() const { return loaded_.metadata_location; }
  //! The catalog's answer this Table was made from (or last refreshed with).
  const LoadedTable& loaded() const { return loaded_; }
  const Schema& schema() const { return *loaded_.metadata.CurrentSchema(); }
  Catalog& catalog() const { return *catalog_; }
  const std::shared_ptr<fileio::FileIO>& io() const { return io_; }

  //! Live data files of the snapshot `ref` points at (none when it points nowhere).
  Result<std::vector<DataFile>> LiveDataFiles(std::string_view ref = kMainBranch) const;
  //! Live data and delete files of the snapshot `ref` points at.
  Result<LiveFiles> Live(std::string_view ref = kMainBranch) const;
  //! Snapshots from the head of `ref` back through their parents, newest first.
  std::vector<Snapshot> History(std::string_view ref = kMainBranch) const;

  std::unique_ptr<SnapshotOperation> NewAppend(SnapshotChange change = {}) const {
    return SnapshotOperation::Append(table_, io_, std::move(change));
  }
  std::unique_ptr<SnapshotOperation> NewReplaceAll(SnapshotChange change = {}) const {
    return SnapshotOperation::ReplaceAll(table_, io_, std::move(change));
  }
  std::unique_ptr<SnapshotOperation> NewOverwrite(SnapshotChange change = {}) const {
    return SnapshotOperation::Overwrite(table_, io_, std::move(change));
  }
  std::unique_ptr<SnapshotOperation> NewReplace(SnapshotChange change = {}) const {
    return SnapshotOperation::Replace(table_, io_, std::move(change));
  }

 private:
  Table(Catalog* catalog, std::shared_ptr<fileio::FileIO> io, TableIdentifier table,
        LoadedTable loaded)
      : catalog_(catalog),
        io_(std::move(io)),
        table_(std::move(table)),
        loaded_(std::move(loaded)) {}

  Catalog* catalog_;  //!< not owned
  std::shared_ptr<fileio::FileIO> io_;
  TableIdentifier table_;
  LoadedTable loaded_;
};

//! Live data files of `snapshot` (none for nullptr).
Result<std::vector<DataFile>> LiveDataFiles(fileio::FileIO& io, const Snapshot* snapshot);
//! Live data and delete files of `snapshot` (none for nullptr).
Result<LiveFiles> LiveFilesOf(fileio::FileIO& io, const Snapshot* snapshot);

}  // namespace databox::iceberg
