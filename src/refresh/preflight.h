// Preflight: everything a refresh needs is checked before any source starts. Any problem means
// exit 2 with every problem listed and nothing started.
#pragma once

#include <string>
#include <vector>

#include "load/workspace.h"

namespace databox::refresh {

struct PreflightOptions {
  bool check_transform = true;  //!< false with --skip-transform
};

//! Every problem found (empty = ready): catalog reachable, warehouse writable (a probe object is
//! written, read back and deleted), analytics database writable, transform command present.
//! The registry (and with it every referenced secret) was validated when it was loaded.
std::vector<std::string> RunPreflight(load::Workspace& workspace, const PreflightOptions& options);

}  // namespace databox::refresh
