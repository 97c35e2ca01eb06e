// What `databox status` prints, from the run history (refresh/run_history.h): for every registry
// source its last successful load and its last failure, and the transform of the newest refresh
// or `databox transform` (with the newest one that ran, when that one did not run), each with
// its age in words. Pure functions of the records and the time now, so tests give them records.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "refresh/run_history.h"

namespace databox::cli {

//! An age in words: "45 s ago", "27 min ago", "1 h 27 min ago", "1 day 4 h ago", "3 days ago";
//! "age unknown" for a negative age (a time that could not be read).
std::string FormatAge(int64_t seconds);

//! How the transform of a refresh ended, as `databox status` names it, the run history's word
//! (`databox runs show` prints the same): "ok", "failed", "skipped" (--skip-transform),
//! "interrupted" (SIGINT or SIGTERM stopped it while it ran) or "not_run" (it never started: a
//! source or the inspection failed, or the refresh was interrupted before it).
std::string TransformOutcome(const refresh::RunRecord& record);

//! The status of `sources` (the registry's, in its order) from `records` (oldest first) at
//! `now_ms` (milliseconds since the epoch).
std::string FormatStatus(const std::vector<std::string>& sources,
                         const std::vector<refresh::RunRecord>& records, int64_t now_ms);
//! The same as {"sources": [...], "transform": {...} or null}, ages in seconds.
nlohmann::ordered_json StatusJson(const std::vector<std::string>& sources,
                                  const std::vector<refresh::RunRecord>& records, int64_t now_ms);

}  // namespace databox::cli
