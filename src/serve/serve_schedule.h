// When `databox serve` runs a refresh on its own (docs/report.md, "Scheduled refresh"): every
// DURATION (--every 30m) counted from the start of the server, or daily at local times of day
// (--at 06:00, given more than once or comma-separated). Parsing, describing and the next run
// time; running the refreshes is serve/refresh_scheduler.h.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "common/error.h"

namespace databox::serve {

using SystemTime = std::chrono::system_clock::time_point;

struct ServeSchedule {
  std::optional<std::chrono::milliseconds> every;  //!< --every; nullopt with --at or no schedule
  std::string every_text;                          //!< --every as given ("30m")
  std::vector<int> at_minutes;  //!< --at as minutes after local midnight, sorted, unique

  bool empty() const { return !every && at_minutes.empty(); }
  //! "every 6h", "daily at 06:00, 18:00 (local time)", "none".
  std::string Describe() const;
  //! The first run time strictly after `now`, counted from `start` for --every.
  SystemTime NextRun(SystemTime start, SystemTime now) const;
};

//! The schedule of --every (`every`, "" when not given) and --at (`at`, each "HH:MM" or a
//! comma-separated list of them). kConfig errors naming the option: both given, a duration that
//! is not one or is under 1 s, a time that is not HH:MM from 00:00 to 23:59.
Result<ServeSchedule> ParseServeSchedule(const std::string& every,
                                         const std::vector<std::string>& at);

//! The first of the local times of day `minutes` (after midnight) strictly after `now`: today's
//! or tomorrow's, as the local time zone (TZ) places it.
SystemTime NextDailyRun(const std::vector<int>& minutes, SystemTime now);

}  // namespace databox::serve
