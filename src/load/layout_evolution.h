// Partition evolution of raw tables: a resource whose declared `partition` (or `sort`) differs
// from the spec (or sort order) its existing root table has gets a new default spec (or order)
// before the load writes any file (iceberg/commit/layout_update.h: add-spec and set-default-spec
// under assert-default-spec-id and assert-last-assigned-partition-id). Files written before keep
// their spec. A resource that declares no partition (or no sort) leaves the table's as they are, so
// a table another engine partitioned is written with its own spec.
#pragma once

#include "common/error.h"
#include "iceberg/spec/schema.h"
#include "iceberg/table.h"
#include "load/workspace.h"
#include "registry/model.h"

namespace databox::load {

//! Brings `table` (of `source`) to the layout its resource declares, reloading it when anything
//! was committed. A partition term naming a column only `incoming` has (the load's new columns)
//! gets that column committed first (as the load would). kConfig naming the term when a column
//! is missing or its type does not take the transform.
Status FollowDeclaredLayout(Workspace& workspace, iceberg::Table& table,
                            const registry::Source& source, const iceberg::Schema& incoming);

}  // namespace databox::load
