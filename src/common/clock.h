// Wall-clock time as text, and the ISO 8601 UTC times and durations read back from it.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace databox {

inline constexpr int64_t kMillisPerSecond = 1000;
inline constexpr int64_t kMicrosPerSecond = 1000 * kMillisPerSecond;

//! "2026-11-30T02:03:04.123Z" for now (UTC, milliseconds).
std::string NowIso();

//! The same text for `at`.
std::string IsoAt(std::chrono::system_clock::time_point at);
//! The same text for a time in milliseconds since the epoch.
std::string MillisIso(int64_t millis);

//! The day of an ISO 8601 calendar date "YYYY-MM-DD" (a real date: no 2026-02-30); nullopt
//! when it is not one. The one parser of dates for the registry, windows and the history.
std::optional<std::chrono::sys_days> IsoToDate(std::string_view iso);

//! Milliseconds since the epoch of an ISO 8601 UTC time as NowIso() writes it
//! ("2026-11-30T02:03:04.123Z", fraction optional, "+00:00" for the Z); nullopt when it is not
//! one.
std::optional<int64_t> IsoToMillis(std::string_view iso);

//! "0.4 s", "12 s", "3 m 05 s", "2 h 01 m" for a duration in milliseconds.
std::string FormatDuration(int64_t millis);

//! "3d", "12h", "30m", "45s" or "0" (a bare number is seconds); nullopt when it is not one.
std::optional<std::chrono::milliseconds> ParseDuration(const std::string& text);

}  // namespace databox
