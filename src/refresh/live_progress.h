// The live progress display of `databox refresh` on a terminal: one line per source (phase,
// requests, rows, state) redrawn in place, instead of the plain protocol lines.
#pragma once

#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace databox::refresh {

class LiveProgress {
 public:
  explicit LiveProgress(std::FILE* out) : out_(out) {}

  //! Takes a protocol line (SOURCE_START / SOURCE_END / PHASE_START ...) and redraws.
  void OnProtocolLine(std::string_view line);
  //! Takes a progress event of one source and redraws.
  void OnProgress(const std::string& source, const std::string& phase, int64_t requests,
                  int64_t rows);
  //! Leaves the final state on screen.
  void Finish();

 private:
  struct Row {
    std::string state = "waiting";
    std::string phase;
    int64_t requests = 0;
    int64_t rows = 0;
  };
  void Redraw();
  Row& RowFor(const std::string& source);

  std::FILE* out_;
  std::vector<std::string> order_;   //!< sources in the order they appeared
  std::map<std::string, Row> rows_;  //!< by source
  std::string footer_;               //!< e.g. "transform running"
  std::size_t drawn_ = 0;            //!< lines drawn last time
};

}  // namespace databox::refresh
