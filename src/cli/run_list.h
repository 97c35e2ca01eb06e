// What `databox runs` and `databox runs show` print: the run history (refresh/run_history.h) as
// one line per run, and one run as a trace of its sources, inspection and transform. Pure
// functions of the records, so tests give them records instead of running loads.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/clock.h"  // IsoToMillis, FormatDuration (used with run records)
#include "refresh/run_history.h"

namespace databox::cli {

//! How a run ended, by name (refresh/run_status.h).
using refresh::RunOutcomeName;

//! The table `databox runs` prints: a header and one line per record, in the given order.
std::string FormatRunList(const std::vector<refresh::RunRecord>& records);
//! The same as a JSON array, one summary object per record (snapshot ids beyond 2^53 as text).
nlohmann::ordered_json RunListJson(const std::vector<refresh::RunRecord>& records);

//! The trace `databox runs show` prints for one record.
std::string FormatRunTrace(const refresh::RunRecord& record);
//! The same as JSON: the summary fields and every source, inspection and transform in full.
nlohmann::ordered_json RunTraceJson(const refresh::RunRecord& record);

//! The record whose run_id is `run_id`, or whose run_id starts with it when only one does; a
//! kNotFound error naming the newest ids when none matches, a kConfig error when the prefix is
//! ambiguous.
Result<refresh::RunRecord> FindRun(const std::vector<refresh::RunRecord>& records,
                                   std::string_view run_id);

}  // namespace databox::cli
