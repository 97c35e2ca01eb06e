// A command that loads one raw_<name> namespace outside a refresh, as a run of its own:
// `databox run SOURCE` and `databox ingest ... --table raw_<name>.<table>`. The same machinery as
// the refresh's loads (tracked_load.h, the run's events, the run history as a subscriber): one
// source entry, the raw views rebuilt after a committed load (so `databox query` sees it), and
// the record appended to the run history whatever the outcome.
#pragma once

#include <string>

#include "common/error.h"
#include "load/source_load.h"
#include "load/workspace.h"
#include "refresh/events.h"
#include "refresh/run_history.h"
#include "refresh/tracked_load.h"

namespace databox::refresh {

struct SingleLoadOutcome {
  Result<load::SourceLoadResult> loaded;
  RunRecord record;  //!< also appended to the run history; exit_code is the command's
  //! Why the raw views were not rebuilt after a committed load (also a note of the source);
  //! empty when they were or the load failed.
  std::string views_error;
  std::string history_problem;  //!< why the record could not be appended (empty: it was)
};

//! Runs `load` for `source` as the run of `command` ("run", "ingest"): the events of one source
//! (a failure before any progress in phase `load`) to `observer` (may be null), the raw views,
//! and the record (exit code 0; 1 when the load or the views failed; the signal's code when
//! SIGINT or SIGTERM stopped the load), appended to the history of the workspace's state_dir.
SingleLoadOutcome RunSingleLoad(load::Workspace& workspace, const std::string& command,
                                const std::string& source, const LoadCall& load,
                                RunObserver* observer);

}  // namespace databox::refresh
