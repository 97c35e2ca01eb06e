// The target's state and the pointer protocol (docs/publish.md, "Pointer protocol").
//
// A target is databox's when it holds the marker .databox-publish (written with a conditional
// create into an empty target before anything else); a target holding other objects and no
// marker is refused untouched. The pointer current.json is written last: created with a
// conditional create for the first version, then replaced only while it is the version this
// publish started from (FileIO::ReplaceIfTag: S3 If-Match, local flock + rename), so a consumer
// sees either the previous complete version or the new one, and two publishers racing cannot
// move the pointer backwards.
#pragma once

#include <optional>
#include <string>

#include "common/error.h"
#include "fileio/file_io.h"
#include "publish/layout.h"
#include "publish/manifest.h"

namespace databox::publish {

struct TargetState {
  bool has_marker = false;
  std::optional<Pointer> pointer;  //!< none before the first version
  std::string pointer_tag;         //!< the pointer's version tag, for the conditional replace
};

//! Reads the marker and the pointer. kConfig when the target holds objects but no marker (not
//! published by databox), or a pointer that is not ours; the store's error (unreachable, keys
//! refused, no such bucket) with the target named.
Result<TargetState> InspectTarget(fileio::FileIO& io, const Layout& layout);

//! Writes the marker into a target that has none (InspectTarget found it empty).
Status ClaimTarget(fileio::FileIO& io, const Layout& layout);

//! Moves the pointer from `before` to `next` (see the file comment). kConflict when another
//! publish moved it meanwhile; the pointer is then left as that publish wrote it.
Status MovePointer(fileio::FileIO& io, const Layout& layout, const TargetState& before,
                   const Pointer& next);

}  // namespace databox::publish
