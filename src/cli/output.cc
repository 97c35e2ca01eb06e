#include "cli/output.h"

#include <cstdio>
#include <string>

#include "common/redact.h"

namespace databox::cli {

void Out(std::string_view text) {
  const std::string safe = Redact(text);
  std::fwrite(safe.data(), 1, safe.size(), stdout);
  std::fflush(stdout);
}

void Err(std::string_view text) {
  const std::string safe = Redact(text);
  std::fwrite(safe.data(), 1, safe.size(), stderr);
  std::fflush(stderr);
}

}  // namespace databox::cli
