// Partition evolution (and a new sort order) of an existing table, as one catalog commit with the
// REST spec's updates: add-spec + set-default-spec (requirements assert-default-spec-id and
// assert-last-assigned-partition-id, derived in commit.h) and add-sort-order +
// set-default-sort-order (assert-default-sort-order-id). Data files are not touched: files
// written under an older spec keep it, and readers plan them with that spec.
//
// Field ids follow Iceberg Java's v2 rules: a field whose source column and transform some
// earlier spec of the table had keeps that field's id; any other field gets the next id above
// last-partition-id. A new spec (sort order) carries the next free id and set-default-spec names it
// as the last added (-1), as Iceberg Java's clients send them (a server such as Nessie takes the
// id it is sent); a spec equal to an earlier one becomes the default again by its id alone.
#pragma once

#include <optional>

#include "iceberg/commit/commit.h"
#include "iceberg/spec/partition_spec.h"
#include "iceberg/spec/sort_order.h"

namespace databox::iceberg {

//! `wanted` with the field ids it gets in `metadata` (see the file comment); spec id unchanged.
PartitionSpec WithEvolvedFieldIds(const TableMetadata& metadata, const PartitionSpec& wanted);

//! Whether `a` and `b` partition alike: same source columns, transforms and names, in order
//! (field and spec ids ignored).
bool SameLayout(const PartitionSpec& a, const PartitionSpec& b);

//! Makes `spec` the table's default spec (field ids as WithEvolvedFieldIds assigns them) and,
//! when given and not unsorted, `order` its default sort order. Nothing to do plans no update.
class LayoutUpdate final : public TableChange {
 public:
  LayoutUpdate(TableIdentifier table, PartitionSpec spec, std::optional<SortOrder> order)
      : table_(std::move(table)), spec_(std::move(spec)), order_(std::move(order)) {}
  const TableIdentifier& identifier() const override { return table_; }
  Result<PlannedChange> Plan(const LoadedTable* base) override;
  std::vector<std::string> DurableFiles() const override { return {}; }

 private:
  TableIdentifier table_;
  PartitionSpec spec_;
  std::optional<SortOrder> order_;
};

}  // namespace databox::iceberg
