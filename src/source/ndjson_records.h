// Records out of an NDJSON body (one JSON document per line).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/error.h"
#include "source/records.h"

namespace databox::source {

//! Feeds the records of an NDJSON body: every line that is not empty or blank (a CR before the
//! LF is allowed) is one JSON document, and its records are selected by `records_path` as for a
//! JSON body (SelectJsonRecords: "" = the document, an array = one record per element). A line
//! that is not JSON is a kData error naming the line (1-based) and its byte offset (0-based).
//! Stops after `limit` records. Returns the number fed.
Result<int64_t> ParseNdjsonRecords(std::string_view body, const std::string& records_path,
                                   int64_t limit, const RecordSink& sink);

}  // namespace databox::source
