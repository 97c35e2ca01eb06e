// The live progress display of `databox refresh` and `databox run` on a terminal: one line per
// source (state with its elapsed time, phase, requests, records, then the rows written) redrawn
// in place, the running phase with its elapsed time as a footer, and every failure printed above
// the lines the moment it happens. It reads the refresh's protocol lines with the protocol's
// parser (refresh/protocol.h), the loads' progress events, and each source's outcome.
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
#include <string_view>
#include <thread>
#include <vector>

#include "load/load_phase.h"
#include "load/source_load.h"
#include "refresh/protocol.h"
#include "refresh/run_history.h"

namespace databox::refresh {

class LiveProgress {
 public:
  using Clock = std::chrono::steady_clock;

  struct Options {
    bool colour = false;               //!< ANSI colours (common/terminal_style.h decides)
    std::optional<std::size_t> width;  //!< lines are cut to it (a wrapped line breaks redraw)
    std::function<Clock::time_point()> now = [] { return Clock::now(); };  //!< tests set it
  };

  explicit LiveProgress(std::FILE* out) : LiveProgress(out, Options{}) {}
  LiveProgress(std::FILE* out, Options options) : out_(out), options_(std::move(options)) {}

  //! Takes a protocol line (SOURCE_START / SOURCE_END / PHASE_START ...) and redraws; a line
  //! the parser refuses changes nothing.
  void OnProtocolLine(std::string_view line);
  //! A source started (what SOURCE_START says, for callers without protocol lines).
  void OnSourceStart(const std::string& source);
  //! Takes a progress event of one source and redraws.
  void OnProgress(const load::LoadProgress& progress);
  //! A source ended: its rows, or its error, printed above the live lines at once.
  void OnSourceFinished(const SourceRun& run);
  //! Redraws, so elapsed times move.
  void Tick();
  //! Leaves the final state on screen; later calls draw nothing.
  void Finish();

 private:
  struct Row {
    std::string state = "waiting";  //!< waiting, running, done, FAILED, interrupted
    std::optional<Clock::time_point> started;
    std::optional<double> seconds;         //!< set when it ended
    std::optional<load::LoadPhase> phase;  //!< none until the first progress event
    int64_t requests = 0;
    int64_t records = 0;
    std::optional<int64_t> rows;  //!< rows written, once committed
  };
  struct Footer {
    std::string phase;  //!< e.g. "transform"
    std::string state;  //!< running, done, FAILED
    Clock::time_point started;
    std::optional<double> seconds;
  };
  void Apply(const SourceStart& event);
  void Apply(const SourceEnd& event);
  void Apply(const PhaseStart& event);
  void Apply(const PhaseEnd& event);
  Row& RowFor(const std::string& source);
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
