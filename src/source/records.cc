#include "source/records.h"

#include <charconv>
#include <optional>
#include <vector>

#include "common/untrusted_json.h"
#include "source/ndjson_records.h"

namespace databox::source {
namespace {

//! Splits one line of a delimited text; CSV honours double quotes inside one line.
std::vector<std::string> SplitFields(std::string_view line, char delimiter, bool quoted) {
  std::vector<std::string> fields(1);
  bool in_quotes = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted && c == '"') {
      if (in_quotes && i + 1 < line.size() && line[i + 1] == '"') {
        fields.back() += '"';
        ++i;
      } else {
        in_quotes = !in_quotes;
      }
    } else if (c == delimiter && !in_quotes) {
      fields.emplace_back();
    } else {
      fields.back() += c;
    }
  }
  return fields;
}

//! One logical line (record) of a delimited text.
struct TextLine {
  std::string_view text;  //!< without the "\r\n"/"\n" ending
  int64_t lines = 1;      //!< physical lines it spans (a CSV quoted field may hold newlines)
  std::optional<std::size_t> open_quote;  //!< offset of a quote still open at the end of `body`
};

//! The next logical line of `body` from *pos; for CSV a quoted field may span lines.
TextLine NextLine(std::string_view body, std::size_t* pos, bool quoted) {
  const std::size_t begin = *pos;
  TextLine line;
  bool in_quotes = false;
  std::size_t quote = 0;
  std::size_t i = begin;
  for (; i < body.size(); ++i) {
    if (quoted && body[i] == '"') {
      in_quotes = !in_quotes;
      if (in_quotes) quote = i;
    }
    if (body[i] != '\n') continue;
    if (!in_quotes) break;
    ++line.lines;
  }
  if (in_quotes) line.open_quote = quote;
  *pos = i < body.size() ? i + 1 : i;
  line.text = body.substr(begin, i - begin);
  if (!line.text.empty() && line.text.back() == '\r') line.text.remove_suffix(1);
  return line;
}

}  // namespace

const Json* FindPath(const Json& doc, std::string_view path) {
  if (path.empty() || path == "$") return &doc;
  const Json* node = &doc;
  while (node != nullptr) {
    const std::size_t dot = path.find('.');
    const std::string_view step = path.substr(0, dot);
    if (node->is_object()) {
      auto it = node->find(std::string(step));
      node = it == node->end() ? nullptr : &*it;
    } else if (node->is_array()) {
      std::size_t index = 0;
      auto [end, ec] = std::from_chars(step.data(), step.data() + step.size(), index);
      const bool ok = ec == std::errc() && end == step.data() + step.size();
      node = ok && index < node->size() ? &(*node)[index] : nullptr;
    } else {
      node = nullptr;
    }
    if (dot == std::string_view::npos) break;
    path.remove_prefix(dot + 1);
  }
  return node;
}

Result<Json> ParseJsonBody(std::string_view body, std::string_view where) {
  auto doc = ParseUntrustedJson(body);
  if (!doc) {
    const JsonFault& fault = doc.error();
    const std::string hint = fault.kind == JsonFaultKind::kSyntax
                                 ? "check the resource's format and the endpoint"
                                 : "the upstream data cannot be loaded as it is";
    return MakeError(ErrorKind::kData, std::string(where) + ": the response (" +
                                           std::to_string(body.size()) + " bytes) " + fault.detail +
                                           "; " + hint);
  }
  return std::move(*doc);
}

Result<int64_t> SelectJsonRecords(Json doc, const std::string& records_path, int64_t limit,
                                  const RecordSink& sink) {
  if (limit <= 0) return 0;
  if (records_path == "$") {
    DATABOX_RETURN_IF_ERROR(sink(std::move(doc)));
    return 1;
  }
  Json* node = const_cast<Json*>(FindPath(doc, records_path));
  if (node == nullptr || node->is_null()) return 0;
  if (!node->is_array()) {
    DATABOX_RETURN_IF_ERROR(sink(std::move(*node)));
    return 1;
  }
  int64_t fed = 0;
  for (Json& element : *node) {
    if (fed >= limit) break;
    DATABOX_RETURN_IF_ERROR(sink(std::move(element)));
    ++fed;
  }
  return fed;
}

Result<int64_t> ParseTextRecords(std::string_view body, registry::ResponseFormat format,
                                 int64_t limit, const RecordSink& sink, int64_t* short_rows,
                                 int64_t* first_short_line) {
  const bool rdb = format == registry::ResponseFormat::kRdb;
  const bool csv = format == registry::ResponseFormat::kCsv;
  const char delimiter = csv ? ',' : '\t';
  std::vector<std::string> header;
  bool skip_format_line = rdb;
  int64_t fed = 0;
  std::size_t pos = 0;
  int64_t next_line_no = 1;
  while (pos < body.size() && fed < limit) {
    const std::size_t offset = pos;
    const TextLine line = NextLine(body, &pos, csv);
    const int64_t line_no = next_line_no;
    next_line_no += line.lines;
    if (line.open_quote) {
      return MakeError(ErrorKind::kData,
                       "line " + std::to_string(line_no) +
                           ": the quoted field opened at byte offset " +
                           std::to_string(*line.open_quote) +
                           " is not closed before the end of the data; the data is cut off or a "
                           "quote inside a field is not doubled (\"\")");
    }
    if (line.text.empty() || (rdb && line.text.front() == '#')) continue;
    std::vector<std::string> fields = SplitFields(line.text, delimiter, csv);
    if (header.empty()) {
      header = std::move(fields);
      continue;
    }
    if (skip_format_line) {
      skip_format_line = false;
      continue;
    }
    if (rdb && fields.size() < header.size()) {
      if (short_rows != nullptr) ++*short_rows;
      if (first_short_line != nullptr && *first_short_line == 0) *first_short_line = line_no;
      continue;
    }
    if (fields.size() != header.size()) {
      return MakeError(ErrorKind::kData,
                       "line " + std::to_string(line_no) + " has " + std::to_string(fields.size()) +
                           " fields but the header has " + std::to_string(header.size()) +
                           " (the record starts at byte offset " + std::to_string(offset) + ")");
    }
    Json record = Json::object();
    for (std::size_t i = 0; i < header.size(); ++i) record[header[i]] = std::move(fields[i]);
    DATABOX_RETURN_IF_ERROR(sink(std::move(record)));
    ++fed;
  }
  return fed;
}

std::vector<std::string> TextHeader(std::string_view body, registry::ResponseFormat format) {
  const bool csv = format == registry::ResponseFormat::kCsv;
  std::size_t pos = 0;
  while (pos < body.size()) {
    const TextLine line = NextLine(body, &pos, csv);
    if (!line.text.empty()) return SplitFields(line.text, csv ? ',' : '\t', csv);
  }
  return {};
}

Result<int64_t> ForEachRecord(std::string_view body, const registry::Resource& resource,
                              int64_t limit, std::string_view where, const RecordSink& sink,
                              int64_t* short_rows, int64_t* first_short_line) {
  switch (resource.format) {
    case registry::ResponseFormat::kJson: {
      DATABOX_ASSIGN_OR_RETURN(Json doc, ParseJsonBody(body, where));
      return SelectJsonRecords(std::move(doc), resource.records_path, limit, sink);
    }
    case registry::ResponseFormat::kNdjson: {
      auto fed = ParseNdjsonRecords(body, resource.records_path, limit, sink);
      if (!fed) return std::unexpected(fed.error().WithContext(where));
      return fed;
    }
    case registry::ResponseFormat::kRdb:
    case registry::ResponseFormat::kCsv:
    case registry::ResponseFormat::kTsv: {
      auto fed = ParseTextRecords(body, resource.format, limit, sink, short_rows, first_short_line);
      if (!fed) return std::unexpected(fed.error().WithContext(where));
      return fed;
    }
    case registry::ResponseFormat::kXlsx:
      break;
  }
  return MakeError(
      ErrorKind::kConfig,
      std::string(where) + ": format xlsx is read by the file source runner, not by rest_json");
}

}  // namespace databox::source
