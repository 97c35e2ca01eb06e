#include "iceberg/produce/snapshot_validation.h"

#include <string>

#include "iceberg/produce/snapshot_producer.h"

namespace databox::iceberg {
namespace {

Status ValidateDeletedLive(const SnapshotChange& change, const TableMetadata& base,
                           const FilteredManifests& filtered) {
  for (const auto& path : change.deleted_paths) {
    if (!filtered.deleted.contains(path)) {
      return MakeError(ErrorKind::kConflict, "file " + path + " is no longer live on branch " +
                                                 change.branch + " of " + base.location +
                                                 ": a concurrent commit changed it; run the "
                                                 "operation again");
    }
  }
  return Ok();
}

Status ValidateReferencedLive(const SnapshotChange& change, const TableMetadata& base,
                              const FilteredManifests& filtered) {
  for (const auto& path : change.referenced_paths) {
    if (!filtered.referenced_live.contains(path) || filtered.deleted.contains(path)) {
      return MakeError(ErrorKind::kConflict,
                       "data file " + path +
                           " that new position deletes point at is no longer "
                           "live on branch " +
                           change.branch + " of " + base.location +
                           ": a concurrent commit rewrote it; run the operation again");
    }
  }
  return Ok();
}

Status ValidateNoNewData(const SnapshotChange& change, const TableMetadata& base,
                         const Snapshot* head) {
  for (const Snapshot* s = head; s != nullptr;
       s = s->parent_snapshot_id ? base.SnapshotById(*s->parent_snapshot_id) : nullptr) {
    if (change.read_snapshot && s->snapshot_id == *change.read_snapshot) return Ok();
    auto added = s->summary.find("added-data-files");
    if (added == s->summary.end() || added->second != "0") {
      return MakeError(ErrorKind::kConflict,
                       "snapshot " + std::to_string(s->snapshot_id) + " (" + s->operation() +
                           ") added data files to branch " + change.branch + " of " +
                           base.location +
                           " after this merge read it: they may hold the same keys; run the "
                           "operation again");
    }
  }
  if (!change.read_snapshot) return Ok();
  return MakeError(ErrorKind::kConflict,
                   "snapshot " + std::to_string(*change.read_snapshot) +
                       " that this merge read is no longer in the history of branch " +
                       change.branch + " of " + base.location + "; run the operation again");
}

}  // namespace

Status ValidateSnapshot(const SnapshotChange& change, const TableMetadata& base,
                        const Snapshot* head, const FilteredManifests& filtered) {
  DATABOX_RETURN_IF_ERROR(ValidateDeletedLive(change, base, filtered));
  DATABOX_RETURN_IF_ERROR(ValidateReferencedLive(change, base, filtered));
  if (change.validate_no_new_data) DATABOX_RETURN_IF_ERROR(ValidateNoNewData(change, base, head));
  return Ok();
}

}  // namespace databox::iceberg
