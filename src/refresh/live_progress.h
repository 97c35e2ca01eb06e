// The live progress display of `databox refresh` on a terminal: one line per source (phase,
// requests, rows, state) redrawn in place, instead of the plain protocol lines. It reads those
// lines with the protocol's parser (refresh/protocol.h).
#pragma once

#include <cstdint>
#include <cstdio>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "load/load_phase.h"
#include "refresh/protocol.h"

namespace databox::refresh {

class LiveProgress {
 public:
  explicit LiveProgress(std::FILE* out) : out_(out) {}

  //! Takes a protocol line (SOURCE_START / SOURCE_END / PHASE_START ...) and redraws; a line
  //! the parser refuses changes nothing.
  void OnProtocolLine(std::string_view line);
  //! Takes a progress event of one source and redraws.
  void OnProgress(const std::string& source, load::LoadPhase phase, int64_t requests, int64_t rows);
  //! Leaves the final state on screen.
  void Finish();

 private:
  struct Row {
    std::string state = "waiting";
    std::optional<load::LoadPhase> phase;  //!< none until the first progress event
    int64_t requests = 0;
    int64_t rows = 0;
  };
  void Apply(const SourceStart& event);
  void Apply(const SourceEnd& event);
  void Apply(const PhaseStart& event);
  void Apply(const PhaseEnd& event);
  void Redraw();
  Row& RowFor(const std::string& source);

  std::FILE* out_;
  std::vector<std::string> order_;   //!< sources in the order they appeared
  std::map<std::string, Row> rows_;  //!< by source
  std::string footer_;               //!< e.g. "transform running"
  std::size_t drawn_ = 0;            //!< lines drawn last time
};

}  // namespace databox::refresh
