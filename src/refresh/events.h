// The typed event stream of a run (`databox refresh`, and `databox run` / `databox ingest` of
// one source): what happened, as values, to everyone who subscribed. The live display
// (live_progress.h), the protocol printer (protocol_printer.h: the text lines of plain output,
// for readers in other processes), the run history (history_recorder.h) and the commands
// themselves are RunObservers; RunEvents hands each event to all of them, one event at a time.
#pragma once

#include <mutex>
#include <string>
#include <vector>

#include "load/source_load.h"
#include "refresh/run_history.h"

namespace databox::refresh {

//! A source started loading.
struct SourceStart {
  std::string source;
  std::string at;  //!< ISO 8601 UTC

  bool operator==(const SourceStart&) const = default;
};

//! A source finished loading (before inspection: a source that loads and then fails inspection
//! ended ok here): its outcome as the run record holds it (status, seconds, rows or the error).
struct SourceFinished {
  SourceRun run;
  std::string at;  //!< ISO 8601 UTC
};

//! A phase of the refresh after its loads (the transform) started.
struct PhaseStart {
  load::Phase phase = load::Phase::kTransform;
  std::string at;  //!< ISO 8601 UTC

  bool operator==(const PhaseStart&) const = default;
};

//! A phase of the refresh after its loads (the transform) ended.
struct PhaseEnd {
  load::Phase phase = load::Phase::kTransform;
  std::string at;   //!< ISO 8601 UTC
  bool ok = false;  //!< status=0 when true, status=1 when false

  bool operator==(const PhaseEnd&) const = default;
};

//! What a subscriber of a run hears; every method does nothing unless overridden. Called one
//! event at a time (RunEvents holds a lock), from the threads that load.
class RunObserver {
 public:
  virtual ~RunObserver() = default;
  virtual void OnSourceStart(const SourceStart& /*event*/) {}
  //! A load's progress (load/source_load.h), between its source's start and finish.
  virtual void OnProgress(const load::LoadProgress& /*progress*/) {}
  virtual void OnSourceFinished(const SourceFinished& /*event*/) {}
  virtual void OnPhaseStart(const PhaseStart& /*event*/) {}
  virtual void OnPhaseEnd(const PhaseEnd& /*event*/) {}
  //! The run's record is complete (finished_at, exit code): the last event of a run.
  virtual void OnRunFinished(const RunRecord& /*record*/) {}
};

//! Hands each event to every subscriber, in the order they were given, under one lock: a
//! subscriber never hears two events at once. Null subscribers are left out.
class RunEvents final : public RunObserver {
 public:
  explicit RunEvents(std::vector<RunObserver*> subscribers);

  void OnSourceStart(const SourceStart& event) override;
  void OnProgress(const load::LoadProgress& progress) override;
  void OnSourceFinished(const SourceFinished& event) override;
  void OnPhaseStart(const PhaseStart& event) override;
  void OnPhaseEnd(const PhaseEnd& event) override;
  void OnRunFinished(const RunRecord& record) override;

 private:
  template <typename Call>
  void Each(const Call& call) {
    std::lock_guard<std::mutex> guard(lock_);
    for (RunObserver* subscriber : subscribers_) call(*subscriber);
  }

  std::vector<RunObserver*> subscribers_;
  std::mutex lock_;
};

}  // namespace databox::refresh
