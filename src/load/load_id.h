// Load ids: one per source run, in dlt's form (decimal unix time with a fraction).
#pragma once

#include <chrono>
#include <string>

namespace databox::load {

//! "1732931234.123456": seconds since the epoch with microseconds, as dlt writes `_dlt_load_id`.
//! Ids made by one process are strictly increasing, so two loads never share one.
std::string NewLoadId();

//! The load id for a given instant (for tests and for reproducible ids).
std::string LoadIdAt(std::chrono::system_clock::time_point at);

}  // namespace databox::load
