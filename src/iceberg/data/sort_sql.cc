#include "iceberg/data/sort_sql.h"

#include "iceberg/data/partition_sql.h"

namespace databox::iceberg {

Result<std::string> SortOrderClause(const Schema& schema, const SortOrder& order) {
  std::string clause;
  for (const SortField& field : order.fields) {
    if (field.transform.kind() == TransformKind::kVoid) continue;  // every row's value is null
    // The transform's value, computed as a partition value is. Every form there orders as the
    // value does: an identity term is the column itself, or for dates, times, decimals, binary
    // and UUIDs an integer or a hex text of it; truncate and bucket are integers or prefixes.
    const PartitionField as_partition{field.source_id, 0, "sort", field.transform};
    DATABOX_ASSIGN_OR_RETURN(std::string term, PartitionExpression(schema, as_partition));
    clause += clause.empty() ? "ORDER BY " : ", ";
    clause += term;
    clause += field.direction == SortDirection::kAsc ? " ASC" : " DESC";
    clause += field.null_order == NullOrder::kNullsFirst ? " NULLS FIRST" : " NULLS LAST";
  }
  return clause;
}

}  // namespace databox::iceberg
