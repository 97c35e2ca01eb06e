// Recognition and parsing of ISO 8601 strings, for dlt's `iso_timestamp` detection and coercion.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace databox::normalize {

//! What an ISO-like string denotes.
enum class IsoKind { kDateTime, kDate, kTime };

//! A parsed ISO-like value.
struct IsoValue {
  IsoKind kind = IsoKind::kDateTime;
  //! kDateTime: microseconds since the epoch in UTC (a string without offset is taken as UTC, as
  //! dlt does); kDate: days since 1970-01-01; kTime: microseconds since midnight (offset ignored).
  int64_t value = 0;
};

//! Parses `YYYY`, `YYYY-MM`, `YYYY-MM-DD`, `YYYYMMDD` (dates), `HH:MM[:SS[.f]]` (times) and a
//! date followed by `T`, `t` or a space and a time (`HH`, `HH:MM`, `HH:MM:SS`, basic `HHMMSS`,
//! fraction after `.` or `,`), with an optional `Z` or `+HH`, `+HH:MM`, `+HHMM` offset.
//! Ranges are checked (month, day of month, hour, minute, second). Anything else: nullopt.
std::optional<IsoValue> ParseIsoLike(std::string_view text);

//! dlt's `iso_timestamp` detection: the string parses as a date *and time*. Dates alone
//! ("2022-05-29") stay text.
bool IsIsoTimestamp(std::string_view text);

//! Days since 1970-01-01 of a proleptic Gregorian date.
int64_t DaysFromCivil(int64_t year, unsigned month, unsigned day);

}  // namespace databox::normalize
