// The summary of a new snapshot (table spec "Snapshot summary"): the operation, what it added and
// removed (data files, records, bytes; position delete files and their rows), the totals of the
// manifests it lists, and the caller's own keys (databox.load-id, extra_summary).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "iceberg/manifest/manifest.h"
#include "iceberg/manifest/manifest_list.h"
#include "iceberg/metadata/snapshot.h"

namespace databox::iceberg {

struct SnapshotChange;

//! Running totals of some files.
struct FileCounts {
  int64_t files = 0;
  int64_t records = 0;
  int64_t bytes = 0;
  void Add(const DataFile& file) {
    ++files;
    records += file.record_count;
    bytes += file.file_size_in_bytes;
  }
};

//! What a snapshot removes from its parent (the added files are counted from the change).
struct RemovedCounts {
  FileCounts data;     //!< data files
  FileCounts deletes;  //!< position delete files
};

//! The summary of a snapshot that makes `change` on `parent` (nullptr: none), listing
//! `manifests`. total-files-size follows the parent's when the parent has one.
std::map<std::string, std::string> SnapshotSummary(const SnapshotChange& change,
                                                   const Snapshot* parent,
                                                   const RemovedCounts& removed,
                                                   const std::vector<ManifestFile>& manifests);

}  // namespace databox::iceberg
