// The base's manifests filtered for what a snapshot removes (Iceberg's manifest filter): each
// manifest holding a file to delete (or any live file, for delete_all) is rewritten with that
// entry DELETED and its other live entries EXISTING; the others are carried as they are. Data
// manifests are also read when the added position deletes need the data files they point at to
// be live (referenced_paths), so validation can tell.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "common/error.h"
#include "fileio/file_io.h"
#include "iceberg/manifest/manifest_list.h"
#include "iceberg/produce/produce_attempt.h"
#include "iceberg/produce/snapshot_summary.h"

namespace databox::iceberg {

struct SnapshotChange;

struct FilteredManifests {
  std::vector<ManifestFile> rewritten;    //!< encoded into the attempt, in the base's order
  std::vector<ManifestFile> carried;      //!< kept as they are, in the base's order
  std::set<std::string> deleted;          //!< the live files removed (paths)
  std::set<std::string> referenced_live;  //!< referenced_paths found live in data manifests
  RemovedCounts removed;                  //!< what the removed files held
};

//! Filters `manifests` (the base's, on the change's branch) for `change`. kData when a
//! manifest to rewrite uses a partition spec the base does not have.
Result<FilteredManifests> FilterManifests(const SnapshotChange& change,
                                          std::vector<ManifestFile> manifests, fileio::FileIO& io,
                                          ProduceAttempt& attempt);

}  // namespace databox::iceberg
