// Removing old versions (docs/publish.md, "Retention"), after the pointer moved: the newest
// `keep` versions up to the current one stay (the current one always), older version folders
// are removed, then every file under data/ that no kept version's manifest names. Version
// folders above the current one (a killed publish's, or one in progress) are left alone: the
// next publish takes that number and clears its folder first.
#pragma once

#include <cstdint>

#include "common/error.h"
#include "fileio/file_io.h"
#include "publish/layout.h"

namespace databox::publish {

struct RetentionStats {
  int64_t versions_removed = 0;
  int64_t files_removed = 0;
};

Result<RetentionStats> ApplyRetention(fileio::FileIO& io, const Layout& layout, int64_t current,
                                      int keep);

//! Deletes every object under a version's folder (used before writing a version there).
Status ClearVersionFolder(fileio::FileIO& io, const Layout& layout, int64_t version);

}  // namespace databox::publish
