// SnapshotProducer: turns "add these data files, remove those" into a new snapshot of a
// branch: manifests, manifest list, summary, and the AddSnapshot/SetSnapshotRef updates.
//
// Produce() runs the steps Iceberg's snapshot producers separate, each in a file of its own:
//   1. the manifests of the added files (added_manifest.h: data, and position deletes in a
//      manifest of content "deletes" of their own);
//   2. the base's manifests rewritten for the deleted paths (manifest_filter.h);
//   3. validation against the base (snapshot_validation.h: deleted files live, the data files
//      added deletes point at live, no new data since a merge read the branch);
//   4. the manifest merge (manifest_merge.h, Iceberg Java's merge-append);
//   5. the summary (snapshot_summary.h), the manifest list, and every file of the attempt
//      written together at its end (produce_attempt.h, FileIO::WriteNewBatch: one folder sync
//      for all of them on local storage).
//
// Produce() can be called again on a newer base after a conflicting commit (re-planning): the
// manifests of added files and the snapshot id are reused, everything that depends on the base
// (rewritten and merged manifests, the manifest list) is written anew for that attempt.
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
#include "iceberg/manifest/manifest.h"
#include "iceberg/metadata/snapshot.h"
#include "iceberg/metadata/table_metadata.h"
#include "iceberg/metadata/table_update.h"
#include "iceberg/produce/added_manifest.h"
#include "iceberg/produce/manifest_merge.h"

namespace databox::iceberg {

//! Summary key carrying the load that produced a snapshot (reconciliation looks for it).
inline constexpr const char* kLoadIdSummaryKey = "databox.load-id";

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
    if (added_data_.kept()) out.push_back(added_data_.kept()->manifest_path);
    if (added_deletes_.kept()) out.push_back(added_deletes_.kept()->manifest_path);
    return out;
  }

 private:
  std::shared_ptr<fileio::FileIO> io_;
  SnapshotChange change_;
  std::optional<int64_t> snapshot_id_;                      //!< chosen once
  AddedManifest added_data_{ManifestContent::kData};        //!< written once, reused
  AddedManifest added_deletes_{ManifestContent::kDeletes};  //!< written once, reused
  int attempt_ = 0;                                         //!< Produce calls so far
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
