#include "source/window.h"

#include <algorithm>
#include <cstdio>

#include "common/clock.h"

namespace databox::source {

std::map<std::string, std::string> WindowChunk::Vars() const {
  const std::chrono::year_month_day ymd{start};
  return {{"start", FormatIsoDate(start)},
          {"end", FormatIsoDate(end)},
          {"year", std::to_string(static_cast<int>(ymd.year()))},
          {"month", std::to_string(static_cast<unsigned>(ymd.month()))},
          {"day", std::to_string(static_cast<unsigned>(ymd.day()))}};
}

std::string FormatIsoDate(std::chrono::sys_days day) {
  const std::chrono::year_month_day ymd{day};
  char text[16];
  std::snprintf(text, sizeof text, "%04d-%02u-%02u", static_cast<int>(ymd.year()),
                static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()));
  return text;
}

Result<std::chrono::sys_days> ParseIsoDate(const std::string& text) {
  if (const auto day = IsoToDate(text)) return *day;
  return MakeError(ErrorKind::kConfig,
                   "window date '" + text + "' is not a valid YYYY-MM-DD date; fix the registry");
}

Result<std::vector<WindowChunk>> PlanWindow(const registry::WindowSettings& window,
                                            std::optional<int> chunk_days,
                                            std::chrono::sys_days today) {
  std::chrono::sys_days end = today;
  if (window.end) {
    DATABOX_ASSIGN_OR_RETURN(end, ParseIsoDate(*window.end));
  }
  std::chrono::sys_days start = end - std::chrono::days(window.days_back);
  if (window.start) {
    DATABOX_ASSIGN_OR_RETURN(start, ParseIsoDate(*window.start));
  }
  if (start > end) {
    return MakeError(ErrorKind::kConfig, "window start " + FormatIsoDate(start) +
                                             " is after its end " + FormatIsoDate(end) +
                                             "; fix [source.window]");
  }
  const int span = std::max(1, chunk_days.value_or(window.chunk_days));
  std::vector<WindowChunk> chunks;
  for (std::chrono::sys_days s = start; s <= end; s += std::chrono::days(span)) {
    chunks.push_back({s, std::min(end, s + std::chrono::days(span - 1))});
  }
  return chunks;
}

}  // namespace databox::source
