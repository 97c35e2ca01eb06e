// The sources of a registry with their freshness, from the run history: when each last loaded
// successfully (the end of the newest run in which it was ok, as `databox status` says), how
// long ago that was, and whether that is too long. The registry holds no schedule, so a
// routine source is stale when its last ok load is older than one limit for all
// (`databox report --stale-after`, default kDefaultStaleAfterHours; docs/report.md).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "refresh/run_history.h"
#include "registry/model.h"
#include "report/report_model.h"

namespace databox::report {

//! A daily refresh plus two hours of slack.
inline constexpr int kDefaultStaleAfterHours = 26;

//! Every source of `registry`, in its order, judged at `now_millis` against `records` (oldest
//! first, as RunHistory::ReadAll returns them).
std::vector<SourceState> SourceStates(const registry::Registry& registry,
                                      const std::vector<refresh::RunRecord>& records,
                                      int64_t now_millis, int64_t stale_after_seconds);

//! When each table was last loaded: the end of the newest ok load (refresh, run or ingest) that
//! committed a snapshot to it (refresh::SourceRunEndedAt), by table name.
std::map<std::string, std::string> TableLoadTimes(const std::vector<refresh::RunRecord>& records);

}  // namespace databox::report
