// Fuzzes the Iceberg table metadata JSON reader (iceberg::ParseTableMetadata). Invariant:
// metadata or an error, never a crash.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "iceberg/metadata/metadata_json.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  (void)databox::iceberg::ParseTableMetadata(
      std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
