// The SQL ORDER BY of a table's sort order, so that data files written under a sort order hold
// their rows in it (Iceberg's write contract: "files written under a sort order are sorted by
// it"; sorted columns also compress better).
#pragma once

#include <string>

#include "common/error.h"
#include "duck/connection.h"
#include "iceberg/spec/schema.h"
#include "iceberg/spec/sort_order.h"

namespace databox::iceberg {

//! "ORDER BY <term>, ..." over the columns of `schema` (by their names) for `order`; empty for the
//! unsorted order or one of void terms only. Each term orders by the transform's value, computed
//! as partition_sql.h computes a partition value (call PreparePartitionFunctions on the
//! connection first: bucket[N] needs it); direction and null order as the order says.
Result<std::string> SortOrderClause(const Schema& schema, const SortOrder& order);

}  // namespace databox::iceberg
