// Wall-clock time as text, and the ISO 8601 UTC times and durations read back from it.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace databox {

//! "2026-11-30T02:03:04.123Z" for now (UTC, milliseconds).
std::string NowIso();

//! The same text for `at`.
std::string IsoAt(std::chrono::system_clock::time_point at);
//! The same text for a time in milliseconds since the epoch.
std::string MillisIso(int64_t millis);

//! Milliseconds since the epoch of an ISO 8601 UTC time as NowIso() writes it
//! ("2026-11-30T02:03:04.123Z", fraction optional); nullopt when it is not one.
std::optional<int64_t> IsoToMillis(std::string_view iso);

//! "0.4 s", "12 s", "3 m 05 s", "2 h 01 m" for a duration in milliseconds.
std::string FormatDuration(int64_t millis);

//! "3d", "12h", "30m", "45s" or "0" (a bare number is seconds); nullopt when it is not one.
std::optional<std::chrono::milliseconds> ParseDuration(const std::string& text);

}  // namespace databox
