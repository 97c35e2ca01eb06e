// One source's load as part of a run, the same for every command that loads (`databox refresh`
// for each of its sources, `databox run`, `databox ingest`): the run's events around it
// (events.h) and its outcome in the run record.
#pragma once

#include <functional>
#include <string>

#include "common/error.h"
#include "load/source_load.h"
#include "refresh/events.h"
#include "refresh/run_history.h"

namespace databox::refresh {

//! Records the outcome of one source load in `run`: status, load id, rows, notes and new
//! snapshots when it succeeded; `failed_phase` and the (redacted on write) error otherwise,
//! status interrupted when SIGINT or SIGTERM ended it (common/interrupt.h: IsInterruption).
void RecordLoadOutcome(const Result<load::SourceLoadResult>& loaded, load::Phase failed_phase,
                       SourceRun& run);

using ProgressCallback = std::function<void(const load::LoadProgress& progress)>;
//! A load of one source (load::LoadSource, load::IngestFiles) that reports its progress to the
//! callback it is given (or does not report at all).
using LoadCall = std::function<Result<load::SourceLoadResult>(const ProgressCallback& progress)>;

//! Runs `load` for `source` between a SourceStart and a SourceFinished event, its progress
//! handed on in between, and records in `run` its start, its seconds and its outcome
//! (RecordLoadOutcome), a failure in the phase the load reported last (`unreported_phase` when
//! it reported none). Returns the load's result.
Result<load::SourceLoadResult> TrackedLoad(const std::string& source, const LoadCall& load,
                                           load::Phase unreported_phase, RunObserver& events,
                                           SourceRun& run);

}  // namespace databox::refresh
