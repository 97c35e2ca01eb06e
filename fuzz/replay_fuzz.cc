// Fuzzes the VCR recording parser (http::ReplayTransport::Load) and, when a cassette loads,
// one request against it. Invariant: errors, never crashes, for any YAML.
#include <chrono>
#include <cstddef>
#include <cstdint>

#include "fuzz_input_file.h"
#include "http/replay.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  databox::fuzz::InputFile file(data, size, ".yaml");
  auto transport = databox::http::ReplayTransport::Load(file.path());
  if (!transport) return 0;
  databox::http::Request request;
  request.url = "https://faulty.example.test/api/items?page=1&per_page=2&key=k";
  const databox::http::AttemptLimits limits{std::chrono::seconds(1), std::chrono::seconds(1),
                                            1 << 20};
  (void)(*transport)->Send(request, limits);
  return 0;
}
