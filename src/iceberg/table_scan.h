// Table: a loaded table with read helpers (live files, history, a DuckDB SELECT over the data)
// and factories for its operations. Used by merge/delete, tests and `databox inspect`.
//
// ReadSql reads the live Parquet files with read_parquet(..., union_by_name = true) and
// projects them onto the current schema by column NAME: added columns read as NULL from older
// files and widened types are cast, but renamed columns are not followed (we never rename).
// Rows that live position delete files remove (merge-on-read) are left out: the scan then
// carries each row's file and row number (read_parquet's filename and file_row_number) and
// anti-joins the (file_path, pos) pairs of the delete files. A table with a column named
// file_row_number cannot be read that way (DuckDB refuses the option); it gets a kData error.
#pragma once

#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "fileio/file_io.h"
#include "iceberg/catalog.h"
#include "iceberg/manifest.h"
#include "iceberg/table_operations.h"

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

//! Column names the position-aware scan adds (see FilesReadSql's `positions`): the path
//! read_parquet opened (DuckPathOf the location) and the row's position in that file.
inline constexpr const char* kScanFileColumn = "__databox_file";
inline constexpr const char* kScanPosColumn = "file_row_number";

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
  //! A SELECT of the rows of `ref`, with the current schema's columns.
  Result<std::string> ReadSql(std::string_view ref = kMainBranch) const;

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

//! A SELECT over `files` projected onto `schema`, without the rows `deletes` remove (see the
//! file comment). read_parquet gets local paths for file:// locations and the location itself
//! otherwise. With `positions`, two more columns follow: kScanFileColumn and kScanPosColumn.
Result<std::string> FilesReadSql(const Schema& schema, std::span<const DataFile> files,
                                 std::span<const DataFile> deletes = {}, bool positions = false);

//! "(VALUES (path, location), ...) AS <alias>(path, location)": the path read_parquet opens
//! for each of `files` and its location.
Result<std::string> PathLocationsSql(std::span<const DataFile> files, const std::string& alias);

//! The delete files among `deletes` that may remove rows of `data_file`: those whose file_path
//! bounds include its location (all of them when a file has no such bounds).
std::vector<DataFile> DeletesFor(const DataFile& data_file, std::span<const DataFile> deletes);
//! The single data file a position delete file points at, when its file_path bounds say so.
std::optional<std::string> ReferencedDataFile(const DataFile& delete_file);

//! The path DuckDB should open for a data file location.
Result<std::string> DuckPathOf(const std::string& location);

}  // namespace databox::iceberg
