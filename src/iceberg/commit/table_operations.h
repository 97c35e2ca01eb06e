// Table operations: small objects fed with files, then committed (iceberg-cpp's FastAppend
// shape). Each is a TableChange, so several can be committed together (commit.h).
//
//   SnapshotOperation  append / overwrite-all (replace) / overwrite(delete, add) on a branch;
//                      with CreateIfMissing it also creates the table in the same commit
//   SchemaUpdate       union-by-name schema evolution (add column, widen, make optional)
//   FastForward        publish a branch to main (write-audit-publish)
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "fileio/file_io.h"
#include "iceberg/commit/catalog.h"
#include "iceberg/commit/commit.h"
#include "iceberg/produce/snapshot_producer.h"

namespace databox::iceberg {

class SnapshotOperation final : public TableChange {
 public:
  //! Adds files to the branch (fast append with manifest merging).
  static std::unique_ptr<SnapshotOperation> Append(TableIdentifier table,
                                                   std::shared_ptr<fileio::FileIO> io,
                                                   SnapshotChange change = {});
  //! Removes every live file of the branch and adds the new ones, in one snapshot.
  static std::unique_ptr<SnapshotOperation> ReplaceAll(TableIdentifier table,
                                                       std::shared_ptr<fileio::FileIO> io,
                                                       SnapshotChange change = {});
  //! Rewrites files without changing the rows (operation "replace"): removes the given files
  //! and adds the new ones, in one snapshot.
  static std::unique_ptr<SnapshotOperation> Replace(TableIdentifier table,
                                                    std::shared_ptr<fileio::FileIO> io,
                                                    SnapshotChange change = {});
  //! Removes the given files and adds the new ones, in one snapshot.
  static std::unique_ptr<SnapshotOperation> Overwrite(TableIdentifier table,
                                                      std::shared_ptr<fileio::FileIO> io,
                                                      SnapshotChange change = {});

  //! Adds a data file, or a position delete file (content kPositionDeletes).
  void AddFile(DataFile file) {
    auto& change = producer_.mutable_change();
    (file.content == DataFileContent::kData ? change.added_files : change.added_delete_files)
        .push_back(std::move(file));
  }
  void AddFiles(std::vector<DataFile> files) {
    for (auto& f : files) AddFile(std::move(f));
  }
  //! Removes a live data or delete file.
  void DeleteFile(std::string path) {
    producer_.mutable_change().deleted_paths.insert(std::move(path));
  }
  //! Declares that added position deletes point at this data file (it must stay live).
  void ReferenceFile(std::string path) {
    producer_.mutable_change().referenced_paths.insert(std::move(path));
  }
  //! When the table does not exist, these create-table updates (CreateTableUpdates) are
  //! committed together with the snapshot under assert-create.
  void CreateIfMissing(std::vector<TableUpdate> create_updates) {
    create_updates_ = std::move(create_updates);
  }

  //! Commits through `catalog` with retries (commit.h).
  Result<LoadedTable> Commit(Catalog& catalog, const RetryPolicy& policy = {});

  const TableIdentifier& identifier() const override { return table_; }
  Result<PlannedChange> Plan(const LoadedTable* base) override;
  std::vector<std::string> DurableFiles() const override;
  std::optional<int64_t> snapshot_id() const { return producer_.snapshot_id(); }

 private:
  static std::unique_ptr<SnapshotOperation> Make(TableIdentifier table,
                                                 std::shared_ptr<fileio::FileIO> io,
                                                 SnapshotChange change, const char* operation);
  SnapshotOperation(TableIdentifier table, std::shared_ptr<fileio::FileIO> io,
                    SnapshotChange change)
      : table_(std::move(table)), io_(io), producer_(std::move(io), std::move(change)) {}

  TableIdentifier table_;
  std::shared_ptr<fileio::FileIO> io_;
  SnapshotProducer producer_;
  std::vector<TableUpdate> create_updates_;  //!< empty: the table must exist
};

//! Evolves the current schema to the union (by name) of it and `incoming` (UnionByName).
class SchemaUpdate final : public TableChange {
 public:
  SchemaUpdate(TableIdentifier table, Schema incoming)
      : table_(std::move(table)), incoming_(std::move(incoming)) {}
  const TableIdentifier& identifier() const override { return table_; }
  Result<PlannedChange> Plan(const LoadedTable* base) override;
  std::vector<std::string> DurableFiles() const override { return {}; }

 private:
  TableIdentifier table_;
  Schema incoming_;
};

//! Moves `to` (main) to the head of branch `from`, which must descend from `to`'s snapshot.
class FastForward final : public TableChange {
 public:
  FastForward(TableIdentifier table, std::string from, std::string to = kMainBranch)
      : table_(std::move(table)), from_(std::move(from)), to_(std::move(to)) {}
  const TableIdentifier& identifier() const override { return table_; }
  Result<PlannedChange> Plan(const LoadedTable* base) override;
  std::vector<std::string> DurableFiles() const override { return {}; }

 private:
  TableIdentifier table_;
  std::string from_;
  std::string to_;
};

}  // namespace databox::iceberg
