#include "load/declared_resource.h"

#include "source/avonet.h"
#include "source/usfws_rows.h"

namespace databox::load {

std::optional<registry::Resource> DeclaredResource(const registry::Source& source,
                                                   std::string_view table) {
  const registry::Resource* declared = nullptr;
  for (const registry::Resource& resource : source.resources) {
    if (resource.name == table) declared = &resource;
  }
  if (declared == nullptr) return std::nullopt;
  switch (source.kind) {
    case registry::SourceKind::kFile:
      return source::AvonetResource(*declared);
    case registry::SourceKind::kTargeted:
      for (const registry::Resource& own : source::UsfwsResources()) {
        if (own.name != table) continue;
        registry::Resource typed = *declared;
        typed.columns = own.columns;
        typed.column_order = own.column_order;
        return typed;
      }
      break;
    case registry::SourceKind::kRestJson:
      break;
  }
  return *declared;
}

}  // namespace databox::load
