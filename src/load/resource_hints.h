// What the registry says about a resource's tables, as the normalizer's hints: table name,
// write disposition, primary key and column type/nullability overrides (in the resource's
// column_order, then by name).
#pragma once

#include "common/error.h"
#include "normalize/normalizer.h"
#include "registry/model.h"

namespace databox::load {

//! kConfig naming the source, resource and column when a column hint has an unknown type.
Result<normalize::ResourceHints> HintsFor(const registry::Source& source,
                                          const registry::Resource& resource);

}  // namespace databox::load
