#include "source/ndjson_records.h"

#include <cstring>
#include <utility>

#include "common/untrusted_json.h"

namespace databox::source {
namespace {

bool IsBlank(std::string_view line) {
  return line.find_first_not_of(" \t\r") == std::string_view::npos;
}

}  // namespace

Result<int64_t> ParseNdjsonRecords(std::string_view body, const std::string& records_path,
                                   int64_t limit, const RecordSink& sink) {
  int64_t fed = 0;
  int64_t line_no = 0;
  std::size_t begin = 0;
  while (begin < body.size() && fed < limit) {
    const void* nl = std::memchr(body.data() + begin, '\n', body.size() - begin);
    const std::size_t end =
        nl == nullptr ? body.size()
                      : static_cast<std::size_t>(static_cast<const char*>(nl) - body.data());
    ++line_no;
    const std::string_view line = body.substr(begin, end - begin);
    const std::size_t offset = begin;
    begin = end + 1;
    if (IsBlank(line)) continue;
    auto doc = ParseUntrustedJson(line);
    if (!doc) {
      return MakeError(ErrorKind::kData, "NDJSON line " + std::to_string(line_no) +
                                             " (byte offset " + std::to_string(offset) + ") " +
                                             doc.error().detail);
    }
    DATABOX_ASSIGN_OR_RETURN(int64_t n,
                             SelectJsonRecords(std::move(*doc), records_path, limit - fed, sink));
    fed += n;
  }
  return fed;
}

}  // namespace databox::source
