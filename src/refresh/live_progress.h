// The live progress display of `databox refresh` and `databox run` on a terminal: one line per
// source (state with its elapsed time, phase, requests, records, then the rows written) redrawn
// in place, the running phase with its elapsed time as a footer, and every failure printed above
// the lines the moment it happens. It subscribes to the run's events (refresh/events.h): typed
// values, no text is read back.
//
// Elapsed times move only when something redraws: a LiveTicker (below) calls Tick() every
// half second. Every public method is safe to call from any thread.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "load/load_phase.h"
#include "load/source_load.h"
#include "refresh/events.h"
#include "refresh/run_history.h"

namespace databox::refresh {

class LiveProgress final : public RunObserver {
 public:
  using Clock = std::chrono::steady_clock;
  //! What a source's line or the footer says first: waiting, running, done, FAILED, interrupted.
  enum class State { kWaiting, kRunning, kDone, kFailed, kInterrupted };

  struct Options {
    bool colour = false;               //!< ANSI colours (common/terminal_style.h decides)
    std::optional<std::size_t> width;  //!< lines are cut to it (a wrapped line breaks redraw)
    //! A failed source's error printed above the lines; false when the command prints it itself.
    bool print_failures = true;
    std::function<Clock::time_point()> now = [] { return Clock::now(); };  //!< tests set it
  };

  explicit LiveProgress(std::FILE* out) : LiveProgress(out, Options{}) {}
  LiveProgress(std::FILE* out, Options options) : out_(out), options_(std::move(options)) {}

  //! A source started: its line says running.
  void OnSourceStart(const SourceStart& event) override;
  //! Takes a progress event of one source and redraws.
  void OnProgress(const load::LoadProgress& progress) override;
  //! A source ended: its state, seconds and rows, or its error printed above the live lines at
  //! once.
  void OnSourceFinished(const SourceFinished& event) override;
  //! A phase started: the footer says it runs.
  void OnPhaseStart(const PhaseStart& event) override;
  //! A phase ended: the footer says how.
  void OnPhaseEnd(const PhaseEnd& event) override;
  //! Redraws, so elapsed times move.
  void Tick();
  //! Leaves the final state on screen; later calls draw nothing.
  void Finish();

 private:
  struct Row {
    State state = State::kWaiting;
    std::optional<Clock::time_point> started;
    std::optional<double> seconds;     //!< set when it ended
    std::optional<load::Phase> phase;  //!< none until the first progress event
    int64_t requests = 0;
    int64_t records = 0;
    std::optional<int64_t> rows;  //!< rows written, once committed
  };
  struct Footer {
    load::Phase phase = load::Phase::kTransform;
    State state = State::kRunning;
    Clock::time_point started;
    std::optional<double> seconds;
  };
  Row& RowFor(const std::string& source);
  //! The state with the time it has run ("running 4s", "done 0.412s"); "waiting" alone.
  std::string StateText(State state, std::optional<Clock::time_point> started,
                        std::optional<double> seconds) const;
  std::string Elapsed(Clock::time_point started, std::optional<double> seconds) const;
  std::string Line(const std::string& source, const Row& row) const;
  std::string FooterLine() const;
  std::string Fit(std::string line) const;
  //! Clears the live lines, prints `text` (lines that stay), draws the live lines again.
  void Redraw(const std::string& text = "");

  std::FILE* out_;
  const Options options_;
  std::mutex mutex_;
  std::vector<std::string> order_;   //!< sources in the order they appeared
  std::map<std::string, Row> rows_;  //!< by source
  std::optional<Footer> footer_;
  std::size_t drawn_ = 0;  //!< live lines drawn last time
  bool finished_ = false;
};

//! Calls LiveProgress::Tick every `interval` on a thread of its own until destroyed.
class LiveTicker {
 public:
  LiveTicker(LiveProgress& live, std::chrono::milliseconds interval);
  ~LiveTicker();
  LiveTicker(const LiveTicker&) = delete;
  LiveTicker& operator=(const LiveTicker&) = delete;

 private:
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace databox::refresh
