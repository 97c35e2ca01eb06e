// Preflight: everything a refresh needs is checked before any source starts. Any problem means
// exit 2 with every problem listed and nothing started.
#pragma once

#include <string>
#include <vector>

#include "load/workspace.h"

namespace databox::refresh {

//! What is about to start: a refresh loads sources and runs the transform; `databox transform`
//! only runs the transform (it writes no raw table, and cannot skip the transform).
enum class PreflightFor { kRefresh, kTransform };

struct PreflightOptions {
  bool check_transform = true;  //!< false with --skip-transform
  PreflightFor command = PreflightFor::kRefresh;
};

//! Every problem found (empty = ready): catalog reachable, warehouse writable (a probe object is
//! written, read back and deleted; refresh only), analytics database writable, transform command
//! present.
//! The registry (and with it every referenced secret) was validated when it was loaded.
std::vector<std::string> RunPreflight(load::Workspace& workspace, const PreflightOptions& options);

}  // namespace databox::refresh
