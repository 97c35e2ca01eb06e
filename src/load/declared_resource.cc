#include "load/declared_resource.h"

#include "source/kinds.h"

namespace databox::load {

std::optional<registry::Resource> DeclaredResource(const registry::Source& source,
                                                   std::string_view table) {
  for (const registry::Resource& resource : source.resources) {
    if (resource.name == table) return source::KindOf(source).DeclaredResource(resource);
  }
  return std::nullopt;
}

}  // namespace databox::load
