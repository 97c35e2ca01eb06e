#include "source/rest_json_kind.h"

#include <algorithm>

#include "source/rest_json_source.h"

namespace databox::source {

Result<std::unique_ptr<Source>> RestJsonKind::Make(const registry::Source& source,
                                                   const SourceInput&, Network network) const {
  return std::make_unique<RestJsonSource>(source, std::move(network.client));
}

void RestJsonKind::CapRecords(registry::Source& source, int64_t cap) const {
  for (registry::Resource& resource : source.resources) {
    auto& max = resource.pagination.max_records;
    max = std::min(max.value_or(cap), cap);
  }
}

}  // namespace databox::source
