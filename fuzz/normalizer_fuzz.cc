// Fuzzes the dlt-compatible normalizer with arbitrary JSON: a top-level array is a batch of
// records, anything else one record. Invariant: rows or an error, never a crash.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "normalize/normalizer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  using databox::normalize::Json;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const Json parsed = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded()) return 0;
  databox::normalize::ResourceHints hints;
  hints.resource = "fuzz";
  hints.table_name = "items";
  auto normalizer = databox::normalize::Normalizer::Make(hints, "1796000000.000001");
  if (!normalizer) return 0;
  auto add = [&](const Json& record) { return (*normalizer)->Add(record).has_value(); };
  if (parsed.is_array()) {
    for (const auto& record : parsed) {
      if (!add(record)) break;
    }
  } else {
    add(parsed);
  }
  (void)(*normalizer)->Flush();
  (void)(*normalizer)->Schemas();
  return 0;
}
