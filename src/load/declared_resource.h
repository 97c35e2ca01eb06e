// A declared table as loads write it: the registry's resource, with the columns that its source's
// kind defines in code typed (source::Kind::DeclaredResource), so that what reads the registry
// before the first load (placeholder views) sees the same columns.
#pragma once

#include <optional>
#include <string_view>

#include "registry/model.h"

namespace databox::load {

//! The resource of `source` named `table` with every column its source kind defines as a typed
//! hint (Resource::columns, column_order); the registry's resource unchanged for kinds whose
//! columns come from the registry. nullopt when `source` declares no resource so named (a child
//! table or a system table).
std::optional<registry::Resource> DeclaredResource(const registry::Source& source,
                                                   std::string_view table);

}  // namespace databox::load
