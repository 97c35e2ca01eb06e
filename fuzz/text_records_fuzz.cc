// Fuzzes source::ParseTextRecords with arbitrary bytes as an RDB, CSV or TSV body. The first
// byte picks the format (low two bits) and the record limit (next bits; 0 = no limit); the rest
// is the body. Invariant: records or a kData error, never a crash or a hang; the count returned
// equals the records fed and stays within the limit.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <string_view>

#include "source/records.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  using databox::registry::ResponseFormat;
  if (size == 0) return 0;
  constexpr ResponseFormat kFormats[] = {ResponseFormat::kRdb, ResponseFormat::kCsv,
                                         ResponseFormat::kTsv, ResponseFormat::kCsv};
  const ResponseFormat format = kFormats[data[0] & 3];
  const int64_t limit_bits = data[0] >> 2;
  const int64_t limit = limit_bits == 0 ? std::numeric_limits<int64_t>::max() : limit_bits;
  const std::string_view body(reinterpret_cast<const char*>(data + 1), size - 1);
  int64_t seen = 0;
  int64_t short_rows = 0;
  const auto fed = databox::source::ParseTextRecords(
      body, format, limit,
      [&](databox::source::Json record) -> databox::Status {
        if (!record.is_object()) std::abort();
        ++seen;
        return {};
      },
      &short_rows);
  if (fed && (*fed != seen || *fed > limit)) std::abort();
  if (!fed && fed.error().kind != databox::ErrorKind::kData) std::abort();
  if (format != ResponseFormat::kRdb && short_rows != 0) std::abort();
  return 0;
}
