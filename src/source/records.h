// Records out of one response body: JSON selected by records_path, or RDB/CSV/TSV text rows.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "common/error.h"
#include "registry/model.h"

namespace databox::source {

//! Records keep the key order of the response (and of transform columns).
using Json = nlohmann::ordered_json;

//! Receives records one at a time; an error stops the producer and is returned by it.
using RecordSink = std::function<Status(Json record)>;

//! The node at a dotted path ("metadata.resultset.count"; array elements by index, "a.0.b"), or
//! nullptr when a step is missing. "" and "$" name the document itself.
const Json* FindPath(const Json& doc, std::string_view path);

//! Parses a JSON body (kData error naming `where` when it is not JSON).
Result<Json> ParseJsonBody(std::string_view body, std::string_view where);

//! Feeds the records of a parsed JSON document to `sink`: records_path "$" = the whole document
//! as one record; otherwise the node at records_path ("" = the document): an array gives one
//! record per element, null or missing gives none, anything else is one record. Stops after
//! `limit` records. Returns the number fed.
Result<int64_t> SelectJsonRecords(Json doc, const std::string& records_path, int64_t limit,
                                  const RecordSink& sink);

//! Feeds the rows of an RDB, CSV or TSV body as objects {header: text} (all values strings).
//! RDB: tab-separated; '#' lines skipped; the first line is the header; the format line after
//! it (e.g. "5s\t15s") is skipped. CSV: RFC 4180 quoting (a quoted field may hold delimiters,
//! doubled quotes and newlines). Blank lines are skipped. RDB rows with fewer fields than the
//! header are skipped (counted in *short_rows; the physical line of the first one in `body` goes
//! to *first_short_line when that is given and still 0); any other row whose field count differs
//! from the header's, and a CSV quote still open at the end of `body`, are kData errors naming the
//! physical line (1-based) and the byte offset (0-based). Stops after `limit` records. Returns
//! the number fed.
Result<int64_t> ParseTextRecords(std::string_view body, registry::ResponseFormat format,
                                 int64_t limit, const RecordSink& sink, int64_t* short_rows,
                                 int64_t* first_short_line = nullptr);

//! The header fields of a CSV or TSV body: its first non-blank (logical) line, split as
//! ParseTextRecords splits it; empty for a body without one.
std::vector<std::string> TextHeader(std::string_view body, registry::ResponseFormat format);

//! Either of the above, by the resource's format (kConfig error for xlsx). `where` names the
//! source/resource/URL for messages.
Result<int64_t> ForEachRecord(std::string_view body, const registry::Resource& resource,
                              int64_t limit, std::string_view where, const RecordSink& sink,
                              int64_t* short_rows, int64_t* first_short_line = nullptr);

}  // namespace databox::source
