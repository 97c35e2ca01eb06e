// Preflight: everything a refresh needs is checked before any source starts. Any problem means
// exit 2 with every problem listed and nothing started.
#pragma once

#include <string>
#include <vector>

#include "load/workspace.h"
#include "registry/model.h"

namespace databox::refresh {

//! What is about to start: a refresh loads sources and runs the transform; `databox transform`
//! only runs the transform (it writes no raw table, and cannot skip the transform).
enum class PreflightFor { kRefresh, kTransform };

struct PreflightOptions {
  bool check_transform = true;  //!< false with --skip-transform
  PreflightFor command = PreflightFor::kRefresh;
};

//! The checks that need no workspace (empty = ready): the transform command present, its
//! SQLMesh project folder, its Trino gateway (none without options.check_transform). A command
//! runs them before it opens the workspace, so that a refusal creates nothing (no state folder).
std::vector<std::string> RunRegistryPreflight(const registry::Registry& registry,
                                              const PreflightOptions& options);

//! The checks on the workspace (empty = ready): catalog reachable, warehouse writable (a probe
//! object is written, read back and deleted; refresh only), analytics database writable.
std::vector<std::string> RunWorkspacePreflight(load::Workspace& workspace,
                                               const PreflightOptions& options);

//! Every problem found (empty = ready): RunWorkspacePreflight's, then RunRegistryPreflight's.
//! The registry (and with it every referenced secret) was validated when it was loaded.
std::vector<std::string> RunPreflight(load::Workspace& workspace, const PreflightOptions& options);

}  // namespace databox::refresh
