// What one load tells the source runner: the load id, the extraction time and the clock and
// sleep it must use (injectable, so tests run offline, instantly and deterministically).
#pragma once

#include <chrono>
#include <functional>
#include <string>

namespace databox::source {

//! Pauses the runner between requests; the real sleep when empty.
using SleepFn = std::function<void(std::chrono::milliseconds)>;

struct LoadContext {
  std::string load_id;                              //!< dlt-style load id of this load
  std::chrono::system_clock::time_point loaded_at;  //!< extraction time (`loaded_at` variable)
  std::chrono::sys_days today;  //!< "now" for date windows: the default window end (UTC)
  SleepFn sleep;                //!< pause between requests; real sleep when empty
};

//! A context for a load starting now: loaded_at = now, today = the current UTC date.
LoadContext MakeLoadContext(std::string load_id);

}  // namespace databox::source
