#include "source/context.h"

namespace databox::source {

LoadContext MakeLoadContext(std::string load_id) {
  const auto now = std::chrono::system_clock::now();
  return LoadContext{.load_id = std::move(load_id),
                     .loaded_at = now,
                     .today = std::chrono::floor<std::chrono::days>(now),
                     .sleep = {}};
}

}  // namespace databox::source
