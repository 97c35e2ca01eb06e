// Fuzzes the Avro object container reader (manifests, manifest lists): header, schema JSON,
// codec, blocks, datums. Invariant: values or an error, never a crash.
#include <cstddef>
#include <cstdint>
#include <string>

#include "iceberg/avro/container_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  auto reader = databox::avro::ContainerReader::Open(
      std::string(reinterpret_cast<const char*>(data), size), "fuzz input");
  if (!reader) return 0;
  (void)reader->ReadAll();
  return 0;
}
