// The checks a new snapshot must pass on its base before anything is written. Each failure is
// a kConflict: a concurrent commit changed what the operation read, so the operation must run
// again (re-planned), not merely be retried:
//   every file to delete was live (FilteredManifests::deleted);
//   every data file the added position deletes point at is live and not being deleted;
//   with validate_no_new_data (merges), no snapshot after read_snapshot added data files to the
//   branch, and read_snapshot is still in its history.
#pragma once

#include "common/error.h"
#include "iceberg/metadata/snapshot.h"
#include "iceberg/metadata/table_metadata.h"
#include "iceberg/produce/manifest_filter.h"

namespace databox::iceberg {

struct SnapshotChange;

//! All of the checks above, in that order, for `change` on `base` whose branch head is `head`.
Status ValidateSnapshot(const SnapshotChange& change, const TableMetadata& base,
                        const Snapshot* head, const FilteredManifests& filtered);

}  // namespace databox::iceberg
