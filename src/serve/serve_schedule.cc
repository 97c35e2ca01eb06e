#include "serve/serve_schedule.h"

#include <algorithm>
#include <charconv>
#include <ctime>
#include <string_view>

#include "common/clock.h"

namespace databox::serve {
namespace {

constexpr int kMinutesPerDay = 24 * 60;

//! Minutes after midnight of "HH:MM" (two digits each); nullopt when it is not one.
std::optional<int> ParseTimeOfDay(std::string_view text) {
  if (text.size() != 5 || text[2] != ':') return std::nullopt;
  int hours = 0, minutes = 0;
  const auto digits = [](std::string_view part, int& value) {
    auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), value);
    return ec == std::errc() && end == part.data() + part.size();
  };
  if (!digits(text.substr(0, 2), hours) || !digits(text.substr(3, 2), minutes)) {
    return std::nullopt;
  }
  if (hours < 0 || hours > 23 || minutes < 0 || minutes > 59) return std::nullopt;
  return hours * 60 + minutes;
}

std::string TwoDigits(int value) { return (value < 10 ? "0" : "") + std::to_string(value); }

}  // namespace

std::string ServeSchedule::Describe() const {
  if (every) return "every " + every_text;
  if (at_minutes.empty()) return "none";
  std::string text = "daily at ";
  for (std::size_t i = 0; i < at_minutes.size(); ++i) {
    if (i > 0) text += ", ";
    text += TwoDigits(at_minutes[i] / 60) + ":" + TwoDigits(at_minutes[i] % 60);
  }
  return text + " (local time)";
}

SystemTime ServeSchedule::NextRun(SystemTime start, SystemTime now) const {
  if (!every) return NextDailyRun(at_minutes, now);
  if (now < start) return start + *every;
  const auto periods = (now - start) / *every + 1;
  return start + periods * *every;
}

Result<ServeSchedule> ParseServeSchedule(const std::string& every,
                                         const std::vector<std::string>& at) {
  ServeSchedule schedule;
  if (!every.empty() && !at.empty()) {
    return MakeError(ErrorKind::kConfig,
                     "--every and --at exclude each other: choose an interval or times of day");
  }
  if (!every.empty()) {
    const auto parsed = ParseDuration(every);
    if (!parsed) {
      return MakeError(ErrorKind::kConfig,
                       "--every: '" + every + "' is not a duration like 30m, 6h, 1d");
    }
    if (*parsed < std::chrono::seconds(1)) {
      return MakeError(ErrorKind::kConfig, "--every: '" + every + "' is under 1s: give 1s or more");
    }
    schedule.every = *parsed;
    schedule.every_text = every;
  }
  for (const auto& list : at) {
    std::string_view rest = list;
    while (true) {
      const auto comma = rest.find(',');
      const std::string_view item = rest.substr(0, comma);
      const auto minutes = ParseTimeOfDay(item);
      if (!minutes) {
        return MakeError(ErrorKind::kConfig, "--at: '" + std::string(item) +
                                                 "' is not a time of day HH:MM (00:00 to 23:59)");
      }
      schedule.at_minutes.push_back(*minutes);
      if (comma == std::string_view::npos) break;
      rest.remove_prefix(comma + 1);
    }
  }
  std::ranges::sort(schedule.at_minutes);
  const auto duplicates = std::ranges::unique(schedule.at_minutes);
  schedule.at_minutes.erase(duplicates.begin(), duplicates.end());
  return schedule;
}

SystemTime NextDailyRun(const std::vector<int>& minutes, SystemTime now) {
  const std::time_t now_seconds = std::chrono::system_clock::to_time_t(now);
  std::tm today{};
  localtime_r(&now_seconds, &today);
  for (int day = 0; day <= 2; ++day) {  // 2: a day a DST change shortened cannot hide tomorrow
    for (const int minute : minutes) {
      std::tm candidate = today;
      candidate.tm_mday += day;
      candidate.tm_hour = minute / 60;
      candidate.tm_min = minute % 60;
      candidate.tm_sec = 0;
      candidate.tm_isdst = -1;  // whatever offset the zone has on that day
      const SystemTime at = std::chrono::system_clock::from_time_t(std::mktime(&candidate));
      if (at > now) return at;
    }
  }
  return now + std::chrono::minutes(kMinutesPerDay);  // unreachable with at least one time
}

}  // namespace databox::serve
