// Manifest merging, as Iceberg Java's merge-append: when a new snapshot would list more than
// min_count_to_merge manifests, the carried-over data manifests smaller than target_size_bytes
// are rewritten into one manifest per partition spec (live entries become EXISTING, deleted
// entries are dropped), so manifest lists stay short. A spec with a single small manifest keeps
// it as it is.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/error.h"
#include "fileio/file_io.h"
#include "iceberg/manifest/manifest_list.h"
#include "iceberg/produce/produce_attempt.h"

namespace databox::iceberg {

struct ManifestMergeOptions {
  int min_count_to_merge = 100;           //!< commit.manifest.min-count-to-merge
  int64_t target_size_bytes = 8ll << 20;  //!< commit.manifest.target-size-bytes
  bool enabled = true;                    //!< commit.manifest-merge.enabled
};

//! `carried` (the base's manifests the snapshot lists unchanged) after merging, when the new
//! list would hold `listed` manifests in all: the merged manifests (encoded into `attempt`)
//! first, then the manifests left as they were. kData when a spec is unknown to the base.
Result<std::vector<ManifestFile>> MergeManifests(const ManifestMergeOptions& options, size_t listed,
                                                 std::vector<ManifestFile> carried,
                                                 fileio::FileIO& io, ProduceAttempt& attempt);

}  // namespace databox::iceberg
