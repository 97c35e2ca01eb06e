#include "iceberg/produce/snapshot_producer.h"

#include <algorithm>
#include <utility>

#include "common/failpoint.h"
#include "iceberg/manifest/manifest_list.h"
#include "iceberg/produce/manifest_filter.h"
#include "iceberg/produce/produce_attempt.h"
#include "iceberg/produce/snapshot_summary.h"
#include "iceberg/produce/snapshot_validation.h"

namespace databox::iceberg {
namespace {

//! The snapshot `snapshot_id` on `base` after `parent` (nullptr: none), without its summary
//! and manifest list.
Snapshot NewSnapshot(const TableMetadata& base, int64_t snapshot_id, const Snapshot* parent) {
  Snapshot snapshot;
  snapshot.snapshot_id = snapshot_id;
  if (parent != nullptr) snapshot.parent_snapshot_id = parent->snapshot_id;
  snapshot.sequence_number = base.NextSequenceNumber();
  snapshot.timestamp_ms = std::max(NowMs(), base.last_updated_ms);
  snapshot.schema_id = base.current_schema_id;
  return snapshot;
}

//! The updates that commit `snapshot` to `branch` of `base` (keeping the ref's retention).
std::vector<TableUpdate> CommitUpdates(const TableMetadata& base, const std::string& branch,
                                       const Snapshot& snapshot) {
  SnapshotRef ref = SnapshotRef::Branch(snapshot.snapshot_id);
  if (const SnapshotRef* existing = base.RefByName(branch)) {
    ref = *existing;
    ref.snapshot_id = snapshot.snapshot_id;
  }
  return {AddSnapshot{snapshot}, SetSnapshotRef{branch, ref}};
}

}  // namespace

Result<ManifestFile> EncodeManifestFile(const std::string& location, const Schema& schema,
                                        const PartitionSpec& spec, int64_t snapshot_id,
                                        const std::vector<ManifestEntry>& entries,
                                        std::vector<fileio::NewObject>& pending,
                                        ManifestContent content) {
  std::string bytes;
  DATABOX_ASSIGN_OR_RETURN(auto writer,
                           ManifestWriter::Make(schema, spec, content, snapshot_id,
                                                [&bytes](std::string_view b) -> Status {
                                                  bytes.append(b);
                                                  return Ok();
                                                }));
  for (const auto& entry : entries) DATABOX_RETURN_IF_ERROR(writer.Add(entry));
  DATABOX_ASSIGN_OR_RETURN(ManifestFile file, writer.Finish(location));
  pending.push_back({location, std::move(bytes)});
  return file;
}

Result<std::vector<ManifestFile>> ReadSnapshotManifests(fileio::FileIO& io,
                                                        const Snapshot* snapshot) {
  if (snapshot == nullptr) return std::vector<ManifestFile>{};
  DATABOX_ASSIGN_OR_RETURN(std::string bytes, io.Read(snapshot->manifest_list));
  return ReadManifestList(std::move(bytes), snapshot->manifest_list);
}

Result<ProducedSnapshot> SnapshotProducer::Produce(const TableMetadata& base) {
  ++attempt_;
  if (!snapshot_id_) snapshot_id_ = base.NewSnapshotId();
  DATABOX_ASSIGN_OR_RETURN(ProduceAttempt attempt,
                           ProduceAttempt::Start(base, *snapshot_id_, attempt_));
  const Snapshot* parent = base.CommitBase(change_.branch);
  DATABOX_ASSIGN_OR_RETURN(auto parent_manifests, ReadSnapshotManifests(*io_, parent));
  ProducedSnapshot out;

  // 1. The manifests of added files, new ones first in the list.
  std::vector<ManifestFile> manifests;
  for (auto [added, files] : {std::pair{&added_data_, &change_.added_files},
                              std::pair{&added_deletes_, &change_.added_delete_files}}) {
    DATABOX_ASSIGN_OR_RETURN(std::optional<ManifestFile> manifest, added->For(*files, attempt));
    if (!manifest) continue;
    out.durable_files.push_back(manifest->manifest_path);
    manifests.push_back(std::move(*manifest));
  }

  // 2. The base's manifests, those holding deleted files rewritten.
  DATABOX_ASSIGN_OR_RETURN(FilteredManifests filtered,
                           FilterManifests(change_, std::move(parent_manifests), *io_, attempt));
  for (auto& m : filtered.rewritten) manifests.push_back(std::move(m));

  // 3. Validation against the base, before anything is written.
  DATABOX_RETURN_IF_ERROR(ValidateSnapshot(change_, base, parent, filtered));

  // 4. The carried manifests, merged once the list grows past the threshold.
  // (Counted before the move: argument order is unspecified.)
  const size_t listed = manifests.size() + filtered.carried.size();
  DATABOX_ASSIGN_OR_RETURN(
      std::vector<ManifestFile> carried,
      MergeManifests(change_.merge, listed, std::move(filtered.carried), *io_, attempt));
  for (auto& m : carried) manifests.push_back(std::move(m));

  // 5. The snapshot with its summary; its manifest list and the attempt's files written.
  Snapshot& snapshot = out.snapshot;
  snapshot = NewSnapshot(base, *snapshot_id_, parent);
  snapshot.summary = SnapshotSummary(change_, parent, filtered.removed, manifests);
  DATABOX_ASSIGN_OR_RETURN(snapshot.manifest_list, attempt.WriteAll(*io_, manifests, snapshot));
  added_data_.Keep();
  added_deletes_.Keep();
  out.attempt_files = attempt.files();
  Failpoint("after-manifest-write");
  out.updates = CommitUpdates(base, change_.branch, snapshot);
  return out;
}

}  // namespace databox::iceberg
