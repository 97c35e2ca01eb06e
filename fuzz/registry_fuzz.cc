// Fuzzes the registry parser and validator (registry::Validate, registry::LoadRegistry) with
// arbitrary TOML. Invariant: any input yields a report or an error, never a crash or a hang.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "fuzz_input_file.h"
#include "registry/registry.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  databox::fuzz::InputFile file(data, size, ".toml");
  databox::registry::LoadOptions options;
  // Every ${VAR} resolves to a fixed value: the process environment plays no part.
  options.env = [](const std::string&) -> std::optional<std::string> { return "fuzz-secret"; };
  const auto report = databox::registry::Validate(file.path(), options);
  (void)report.ToString();
  const auto registry = databox::registry::LoadRegistry(file.path(), options);
  if (registry) {
    for (const auto& source : registry->sources) (void)source.Tables();
  }
  return 0;
}
