// The refresh: preflight -> every eligible source concurrently (each runs to its end even when
// a sibling fails) -> inspection of this run's loads -> the raw views -> the transform, only if
// all passed -> one run history record. Its events (refresh/events.h) go to the caller's
// subscriber and to the run history.
#pragma once

#include <string>
#include <vector>

#include "common/error.h"
#include "common/exit_code.h"
#include "load/workspace.h"
#include "refresh/events.h"
#include "refresh/run_history.h"

namespace databox::refresh {

struct RefreshOptions {
  std::vector<std::string> sources;  //!< --source; empty = every routine source
  int max_workers = 0;               //!< 0 = the registry's project.max_workers
  bool skip_transform = false;
  //! The caller ran RunRegistryPreflight (refresh/preflight.h) before it opened the workspace:
  //! the refresh's preflight checks only the workspace.
  bool registry_preflight_done = false;
  //! Hears the run's events (events.h), one at a time; may be null.
  RunObserver* observer = nullptr;
};

struct RefreshOutcome {
  RunRecord record;                             //!< also appended to the run history
  std::vector<std::string> preflight_problems;  //!< non-empty: nothing was started (kUsage)
  ExitCode exit_code = ExitCode::kOk;           //!< kRunFailed: a source, inspection, transform
  std::string history_problem;  //!< why the record could not be appended (empty: it was)
};

//! Which sources a refresh loads: the routine ones, or those named (which must be routine).
//! kConfig errors say how to run an explicit-only source instead.
Result<std::vector<const registry::Source*>> EligibleSources(const registry::Registry& registry,
                                                             const std::vector<std::string>& named);

//! Runs the refresh. Errors are usage errors only (a named source that is not eligible);
//! everything else is reported in the outcome. After SIGINT or SIGTERM (common/interrupt.h) no
//! further source starts, the running loads unwind, what has not begun of inspection, raw
//! views and transform is skipped, a running transform is stopped (its status interrupted),
//! and the record (sources interrupted or not_started) ends with 130 or 143.
Result<RefreshOutcome> RunRefresh(load::Workspace& workspace, const RefreshOptions& options);

}  // namespace databox::refresh
