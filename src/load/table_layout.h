// The Iceberg layout a new raw table is created with: the partition spec and sort order its
// resource declares (registry::Resource::partition and sort; `databox ingest --partition
// --sort`), for the resource's root table only (child tables and the system tables are
// unpartitioned and unsorted). A table that exists is evolved to a changed layout
// (layout_evolution.h); without a declared partition it keeps the spec it has.
#pragma once

#include <string>

#include "common/error.h"
#include "iceberg/spec/partition_spec.h"
#include "iceberg/spec/schema.h"
#include "iceberg/spec/sort_order.h"
#include "registry/model.h"

namespace databox::load {

struct TableLayout {
  iceberg::PartitionSpec spec = iceberg::PartitionSpec::Unpartitioned();
  iceberg::SortOrder order = iceberg::SortOrder::Unsorted();
};

//! The resource of `source` whose root table is `table`; nullptr for a child or system table.
const registry::Resource* RootResourceOf(const registry::Source& source, const std::string& table);

//! The layout of new table `table` with columns `schema`: `resource`'s partition and sort over
//! the schema's field ids when `table` is its root table, else none. kConfig naming the column
//! when a term's column is not in the schema (with the closest name) or its type does not take
//! the transform, or when a partition field's name is another column's.
Result<TableLayout> LayoutFor(const registry::Resource* resource, const std::string& table,
                              const iceberg::Schema& schema);

}  // namespace databox::load
