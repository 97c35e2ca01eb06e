// Wall-clock time as text.
#pragma once

#include <string>

namespace databox {

//! "2026-11-30T02:03:04.123Z" for now (UTC, milliseconds).
std::string NowIso();

}  // namespace databox
