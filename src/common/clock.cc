#include "common/clock.h"

#include <charconv>
#include <chrono>
#include <cstdio>
#include <ctime>

namespace databox {
namespace {

constexpr int64_t kSecondsPerMinute = 60;
constexpr int64_t kSecondsPerHour = 3600;

//! The integer of text[pos, pos + len), or nullopt when it is not all digits.
std::optional<int> Digits(std::string_view text, std::size_t pos, std::size_t len) {
  if (pos + len > text.size()) return std::nullopt;
  for (std::size_t i = pos; i < pos + len; ++i) {
    if (text[i] < '0' || text[i] > '9') return std::nullopt;  // from_chars takes a '-'
  }
  int value = 0;
  const char* begin = text.data() + pos;
  const auto [rest, error] = std::from_chars(begin, begin + len, value);
  if (error != std::errc() || rest != begin + len) return std::nullopt;
  return value;
}

}  // namespace

std::string NowIso() { return IsoAt(std::chrono::system_clock::now()); }

std::string IsoAt(std::chrono::system_clock::time_point at) {
  return MillisIso(
      std::chrono::duration_cast<std::chrono::milliseconds>(at.time_since_epoch()).count());
}

std::string MillisIso(int64_t ms) {
  const std::time_t secs = static_cast<std::time_t>(ms / 1000);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900,
                tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
                static_cast<int>(ms % 1000));
  return buf;
}

std::optional<std::chrono::sys_days> IsoToDate(std::string_view iso) {
  // YYYY-MM-DD
  constexpr std::size_t kDateEnd = 10;
  if (iso.size() != kDateEnd || iso[4] != '-' || iso[7] != '-') return std::nullopt;
  const auto year = Digits(iso, 0, 4), month = Digits(iso, 5, 2), day = Digits(iso, 8, 2);
  if (!year || !month || !day) return std::nullopt;
  const std::chrono::year_month_day date{std::chrono::year(*year),
                                         std::chrono::month(static_cast<unsigned>(*month)),
                                         std::chrono::day(static_cast<unsigned>(*day))};
  if (!date.ok()) return std::nullopt;
  return std::chrono::sys_days(date);
}

std::optional<int64_t> IsoToMillis(std::string_view iso) {
  // YYYY-MM-DDTHH:MM:SS[.fff]Z, or +00:00 for the Z
  constexpr std::size_t kDateEnd = 10;
  constexpr std::size_t kSecondsEnd = 19;
  constexpr std::string_view kUtcOffset = "+00:00";
  if (iso.ends_with(kUtcOffset)) {
    iso.remove_suffix(kUtcOffset.size());
  } else if (iso.ends_with('Z')) {
    iso.remove_suffix(1);
  } else {
    return std::nullopt;
  }
  if (iso.size() < kSecondsEnd || iso[10] != 'T' || iso[13] != ':' || iso[16] != ':') {
    return std::nullopt;
  }
  const auto date = IsoToDate(iso.substr(0, kDateEnd));
  const auto hour = Digits(iso, 11, 2), minute = Digits(iso, 14, 2), second = Digits(iso, 17, 2);
  if (!date || !hour || !minute || !second) return std::nullopt;
  if (*hour > 23 || *minute > 59 || *second > 60) return std::nullopt;
  int64_t millis = 0;
  const std::string_view fraction = iso.substr(kSecondsEnd);
  if (!fraction.empty()) {
    if (fraction[0] != '.' || fraction.size() < 2) return std::nullopt;
    int64_t scale = 100;
    for (char c : fraction.substr(1)) {
      if (c < '0' || c > '9') return std::nullopt;
      millis += (c - '0') * scale;
      scale /= 10;
    }
  }
  const auto days = date->time_since_epoch().count();
  return ((days * 24 + *hour) * kSecondsPerMinute + *minute) * kSecondsPerMinute *
             kMillisPerSecond +
         int64_t{*second} * kMillisPerSecond + millis;
}

std::string FormatDuration(int64_t millis) {
  char buffer[32];
  if (millis < 10 * kMillisPerSecond) {
    std::snprintf(buffer, sizeof buffer, "%.1f s", static_cast<double>(millis) / kMillisPerSecond);
    return buffer;
  }
  const int64_t seconds = millis / kMillisPerSecond;
  if (seconds < kSecondsPerMinute) return std::to_string(seconds) + " s";
  if (seconds < kSecondsPerHour) {
    std::snprintf(buffer, sizeof buffer, "%lld m %02lld s",
                  static_cast<long long>(seconds / kSecondsPerMinute),
                  static_cast<long long>(seconds % kSecondsPerMinute));
    return buffer;
  }
  std::snprintf(buffer, sizeof buffer, "%lld h %02lld m",
                static_cast<long long>(seconds / kSecondsPerHour),
                static_cast<long long>(seconds % kSecondsPerHour / kSecondsPerMinute));
  return buffer;
}

std::optional<std::chrono::milliseconds> ParseDuration(const std::string& text) {
  constexpr int64_t kMsPerSecond = 1000;
  if (text.empty()) return std::nullopt;
  int64_t value = 0;
  const char* end = text.data() + text.size();
  auto [rest, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || value < 0) return std::nullopt;
  const std::string unit(rest, end);
  using std::chrono::milliseconds;
  if (unit.empty() || unit == "s") return milliseconds(value * kMsPerSecond);
  if (unit == "m") return milliseconds(value * 60 * kMsPerSecond);
  if (unit == "h") return milliseconds(value * 3600 * kMsPerSecond);
  if (unit == "d") return milliseconds(value * 86400 * kMsPerSecond);
  return std::nullopt;
}

}  // namespace databox
