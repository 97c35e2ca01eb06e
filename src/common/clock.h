// Wall-clock time as text.
#pragma once

#include <chrono>
#include <string>

namespace databox {

//! "2026-11-30T02:03:04.123Z" for now (UTC, milliseconds).
std::string NowIso();

//! The same text for `at`.
std::string IsoAt(std::chrono::system_clock::time_point at);

}  // namespace databox
