// What the run history says about each source: its newest successful load and its newest
// failure. One definition for every reader (`databox status`, the report and its page): a
// failure is a source run that failed or was interrupted, since neither landed its load.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "refresh/run_history.h"

namespace databox::refresh {

//! One source run of the history and when it ended (SourceRunEndedAt).
struct SourceRunAt {
  const SourceRun* run = nullptr;  //!< null: none
  std::string ended_at;
};

struct SourceLast {
  SourceRunAt ok;                  //!< the newest run with status ok
  SourceRunAt failure;             //!< the newest run that failed or was interrupted
  bool failure_before_ok = false;  //!< an ok run came after `failure`

  //! True when the newest failure came after the newest ok load (or there is no ok load): the
  //! source's current state is failed.
  bool FailureIsCurrent() const { return failure.run != nullptr && !failure_before_ok; }
};

//! True for the statuses that count as a failure: failed and interrupted.
bool IsFailure(SourceStatus status);

//! Each source's SourceLast, by source name, from `records` (oldest first). The pointers point
//! into `records`.
std::map<std::string, SourceLast> LastBySource(const std::vector<RunRecord>& records);

}  // namespace databox::refresh
