// The run history as a subscriber of a run's events (events.h): appends the run's record to
// <state_dir>/runs.jsonl (run_history.h) when the run finishes, and keeps why it could not.
#pragma once

#include <filesystem>
#include <string>

#include "refresh/events.h"
#include "refresh/run_history.h"

namespace databox::refresh {

class HistoryRecorder final : public RunObserver {
 public:
  explicit HistoryRecorder(std::filesystem::path state_dir) : history_(std::move(state_dir)) {}

  void OnRunFinished(const RunRecord& record) override;

  //! Why the record could not be appended; empty when it was (or the run has not finished).
  const std::string& problem() const { return problem_; }

 private:
  RunHistory history_;
  std::string problem_;
};

}  // namespace databox::refresh
