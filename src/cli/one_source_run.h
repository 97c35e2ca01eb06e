// The run-history record of a command that loads one raw_<name> namespace outside a refresh:
// `databox run SOURCE` and `databox ingest ... --table raw_<name>.<table>`. Both record one
// source entry, rebuild the raw views after a committed load (so `databox query` sees it), and
// append the record to the run history whatever the outcome.
#pragma once

#include <chrono>
#include <optional>
#include <string>

#include "cli/session.h"
#include "common/error.h"
#include "load/source_load.h"
#include "refresh/run_history.h"

namespace databox::cli {

class OneSourceRun {
 public:
  //! Starts the record of `command` ("run", "ingest") for the namespace of `source`, now.
  OneSourceRun(const std::string& command, const std::string& source);

  //! A source load's progress: a failure is recorded in the phase reported last.
  void Progress(const load::LoadProgress& progress) { phase_ = progress.phase; }
  //! After the load: its seconds and outcome (refresh::RecordLoadOutcome), in the phase the
  //! load reported last (`load` when it reported none, as an ingest).
  void LoadEnded(const Result<load::SourceLoadResult>& loaded);

  //! After LoadEnded (and anything that shows `run()`): rebuilds the raw views when the load
  //! committed, closes the record (exit code 0, 1 when the load or the views failed, the
  //! signal's code when interrupted) and appends it to the run history (a failure to append is
  //! printed, prefixed "databox <command>: "). Returns why the views were not rebuilt ("" when
  //! they were or the load failed).
  std::string Finish(Session& session, const Result<load::SourceLoadResult>& loaded);

  const refresh::SourceRun& run() const { return run_; }
  const refresh::RunRecord& record() const { return record_; }

 private:
  refresh::RunRecord record_;
  refresh::SourceRun run_;
  std::chrono::steady_clock::time_point start_;
  std::optional<load::LoadPhase> phase_;
};

//! Prints a committed load's tables (table, disposition, rows, snapshot) and notes, indented.
void PrintLoadedTables(const load::SourceLoadResult& loaded);

}  // namespace databox::cli
