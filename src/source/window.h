// Date windows: the span a source's [source.window] asks for, split into request chunks.
#pragma once

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/error.h"
#include "registry/model.h"

namespace databox::source {

//! One request span of a window; both ends inclusive.
struct WindowChunk {
  std::chrono::sys_days start;
  std::chrono::sys_days end;

  //! The placeholder values of this chunk: start, end (YYYY-MM-DD) and year, month, day of the
  //! start, unpadded ("2026", "2", "8").
  std::map<std::string, std::string> Vars() const;
};

//! "YYYY-MM-DD".
std::string FormatIsoDate(std::chrono::sys_days day);
//! Parses "YYYY-MM-DD" (kConfig error otherwise).
Result<std::chrono::sys_days> ParseIsoDate(const std::string& text);

//! The chunks of `window`: end = window.end or `today`; start = window.start or end - days_back;
//! consecutive spans of at most `chunk_days` days (the resource's override, else the window's).
//! kConfig error when start > end or a date does not parse.
Result<std::vector<WindowChunk>> PlanWindow(const registry::WindowSettings& window,
                                            std::optional<int> chunk_days,
                                            std::chrono::sys_days today);

}  // namespace databox::source
