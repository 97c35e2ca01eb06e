// The refresh: preflight -> every eligible source concurrently (each runs to its end even when
// a sibling fails) -> inspection of this run's loads -> the raw views -> the transform, only if
// all passed -> one run history record. Protocol lines (refresh/protocol.h) are documented in
// docs/refresh.md.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "common/error.h"
#include "common/exit_code.h"
#include "load/source_load.h"
#include "load/workspace.h"
#include "refresh/run_history.h"

namespace databox::refresh {

struct RefreshOptions {
  std::vector<std::string> sources;  //!< --source; empty = every routine source
  int max_workers = 0;               //!< 0 = the registry's project.max_workers
  bool skip_transform = false;
  //! The caller ran RunRegistryPreflight (refresh/preflight.h) before it opened the workspace:
  //! the refresh's preflight checks only the workspace.
  bool registry_preflight_done = false;
  //! Protocol lines (SOURCE_START, SOURCE_END, PHASE_START, PHASE_END), each without its
  //! newline, as FormatProtocolLine prints them; called under a lock.
  std::function<void(std::string_view line)> emit;
  //! Live progress events of the loads; called under the same lock.
  std::function<void(const load::LoadProgress& progress)> progress;
  //! Each source's outcome (rows, or the error) as soon as it ended, before its SOURCE_END
  //! line; called under the same lock.
  std::function<void(const SourceRun& run)> source_finished;
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

//! Records the outcome of one source load in `run`: status, load id, rows, notes and new
//! snapshots when it succeeded; `failed_phase` and the (redacted on write) error otherwise,
//! status interrupted when SIGINT or SIGTERM ended it (common/interrupt.h: IsInterruption).
void RecordLoadOutcome(const Result<load::SourceLoadResult>& loaded, SourcePhase failed_phase,
                       SourceRun& run);

//! Runs the refresh. Errors are usage errors only (a named source that is not eligible);
//! everything else is reported in the outcome. After SIGINT or SIGTERM (common/interrupt.h) no
//! further source starts, the running loads unwind, what has not begun of inspection, raw
//! views and transform is skipped, a running transform is stopped (its status interrupted),
//! and the record (sources interrupted or not_started) ends with 130 or 143.
Result<RefreshOutcome> RunRefresh(load::Workspace& workspace, const RefreshOptions& options);

}  // namespace databox::refresh
