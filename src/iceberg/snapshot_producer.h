// SnapshotProducer: turns "add these data files, remove those" into a new snapshot of a
// branch: manifests, manifest list, summary, and the AddSnapshot/SetSnapshotRef updates.
//
// The manifests and the manifest list of one attempt are written together at its end
// (FileIO::WriteNewBatch: one folder sync for all of them on local storage).
//
// Produce() can be called again on a newer base after a conflicting commit (re-planning): the
// manifest of added files and the snapshot id are reused, everything that depends on the base
// (rewritten and merged manifests, the manifest list) is written anew for that attempt.
//
// Position delete files (merge-on-read) go into a manifest of content "deletes" of their own;
// the data files they point at (referenced_paths) must still be live in the base, else the
// commit is a kConflict (a concurrent rewrite moved the rows: the deletes would miss them).
//
// Manifest merging follows Iceberg Java's merge-append: when the new snapshot would list more
// than min_count_to_merge data manifests, the carried-over manifests smaller than
// target_size_bytes are rewritten into one manifest per partition spec (live entries become
// EXISTING, deleted entries are dropped), so manifest lists stay short.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "common/error.h"
#include "fileio/file_io.h"
#include "iceberg/manifest.h"
#include "iceberg/snapshot.h"
#include "iceberg/table_metadata.h"
#include "iceberg/table_update.h"

namespace databox::iceberg {

//! Summary key carrying the load that produced a snapshot (reconciliation looks for it).
inline constexpr const char* kLoadIdSummaryKey = "databox.load-id";

struct ManifestMergeOptions {
  int min_count_to_merge = 100;           //!< commit.manifest.min-count-to-merge
  int64_t target_size_bytes = 8ll << 20;  //!< commit.manifest.target-size-bytes
  bool enabled = true;                    //!< commit.manifest-merge.enabled
};

//! What the new snapshot changes.
struct SnapshotChange {
  std::string operation = kOperationAppend;  //!< summary "operation"
  std::string branch = kMainBranch;          //!< the ref the snapshot is committed to
  std::string load_id;                       //!< summary databox.load-id (omitted if empty)
  std::vector<DataFile> added_files;         //!< data files
  std::vector<DataFile> added_delete_files;  //!< position delete files
  //! Live files to remove (must be live in the base): data files and delete files.
  std::set<std::string> deleted_paths;
  //! Data files the added delete files point at: they must be live in the base.
  std::set<std::string> referenced_paths;
  //! Set by merges: the operation matched keys against the branch as of `read_snapshot` (nullopt:
  //! the branch had no snapshot). A snapshot committed to the branch after it that added data
  //! files is a kConflict: those files may hold the same keys, and the merge would duplicate
  //! them (Iceberg's serializable isolation for merges).
  bool validate_no_new_data = false;
  std::optional<int64_t> read_snapshot;
  bool delete_all = false;  //!< remove every live data file of the branch
  std::map<std::string, std::string> extra_summary;
  ManifestMergeOptions merge;
};

//! One attempt's result.
struct ProducedSnapshot {
  Snapshot snapshot;
  std::vector<TableUpdate> updates;        //!< add-snapshot, set-snapshot-ref
  std::vector<std::string> attempt_files;  //!< written for this base only
  std::vector<std::string> durable_files;  //!< reused across attempts (added-files manifest)
};

class SnapshotProducer {
 public:
  SnapshotProducer(std::shared_ptr<fileio::FileIO> io, SnapshotChange change)
      : io_(std::move(io)), change_(std::move(change)) {}

  //! Plans the snapshot on `base`. kConflict when a file to delete is not live in the base
  //! (someone else changed it: the operation must be re-run, not retried).
  Result<ProducedSnapshot> Produce(const TableMetadata& base);

  const SnapshotChange& change() const { return change_; }
  SnapshotChange& mutable_change() { return change_; }
  //! The snapshot id, fixed at the first Produce (stable across retries).
  std::optional<int64_t> snapshot_id() const { return snapshot_id_; }
  //! The manifests of added data and delete files, once written (kept across attempts).
  std::vector<std::string> added_manifest_paths() const {
    std::vector<std::string> out;
    if (added_manifest_) out.push_back(added_manifest_->manifest_path);
    if (added_delete_manifest_) out.push_back(added_delete_manifest_->manifest_path);
    return out;
  }

 private:
  //! The check of validate_no_new_data, from the branch head `head` of `base`.
  Status ValidateNoNewData(const TableMetadata& base, const Snapshot* head) const;

  std::shared_ptr<fileio::FileIO> io_;
  SnapshotChange change_;
  std::optional<int64_t> snapshot_id_;                 //!< chosen once
  std::optional<ManifestFile> added_manifest_;         //!< written once, reused
  std::optional<ManifestFile> added_delete_manifest_;  //!< written once, reused
  int attempt_ = 0;                                    //!< Produce calls so far
};

//! Encodes `entries` as a manifest of `content` to be written at `location`; returns its list
//! entry and appends the file to `pending` (written later, with the others, by
//! FileIO::WriteNewBatch).
Result<ManifestFile> EncodeManifestFile(const std::string& location, const Schema& schema,
                                        const PartitionSpec& spec, int64_t snapshot_id,
                                        const std::vector<ManifestEntry>& entries,
                                        std::vector<fileio::NewObject>& pending,
                                        ManifestContent content = ManifestContent::kData);

//! The manifests of a snapshot (empty for nullptr).
Result<std::vector<ManifestFile>> ReadSnapshotManifests(fileio::FileIO& io,
                                                        const Snapshot* snapshot);

}  // namespace databox::iceberg
