#include "iceberg/commit/layout_update.h"

#include <algorithm>

namespace databox::iceberg {

PartitionSpec WithEvolvedFieldIds(const TableMetadata& metadata, const PartitionSpec& wanted) {
  PartitionSpec out = wanted;
  int32_t last = std::max(metadata.last_partition_id, kPartitionDataIdStart - 1);
  for (PartitionField& field : out.fields) {
    std::optional<int32_t> earlier;
    for (const PartitionSpec& spec : metadata.partition_specs) {
      for (const PartitionField& old : spec.fields) {
        if (old.source_id == field.source_id && old.transform == field.transform) {
          earlier = old.field_id;
        }
      }
    }
    field.field_id = earlier ? *earlier : ++last;
  }
  return out;
}

bool SameLayout(const PartitionSpec& a, const PartitionSpec& b) {
  return std::equal(a.fields.begin(), a.fields.end(), b.fields.begin(), b.fields.end(),
                    [](const PartitionField& x, const PartitionField& y) {
                      return x.source_id == y.source_id && x.transform == y.transform &&
                             x.name == y.name;
                    });
}

Result<PlannedChange> LayoutUpdate::Plan(const LoadedTable* base) {
  if (base == nullptr) {
    return MakeError(ErrorKind::kNotFound, "table " + table_.ToString() + " does not exist");
  }
  const TableMetadata& metadata = base->metadata;
  PlannedChange planned;
  // As Iceberg Java's clients send them: an earlier spec (order) becomes the default again by its
  // id; a new one carries the next id, and set-default-spec (-order) names it as the last added.
  const PartitionSpec* current = metadata.DefaultSpec();
  if (current == nullptr || !SameLayout(*current, spec_)) {
    PartitionSpec added = WithEvolvedFieldIds(metadata, spec_);
    added.spec_id = 0;
    std::optional<int32_t> earlier;
    for (const PartitionSpec& spec : metadata.partition_specs) {
      if (spec.SameFields(added)) earlier = spec.spec_id;
      added.spec_id = std::max(added.spec_id, spec.spec_id + 1);
    }
    if (!earlier) planned.updates.push_back(AddPartitionSpec{added});
    planned.updates.push_back(SetDefaultSpec{earlier.value_or(kLastAdded)});
  }
  if (order_ && !order_->is_unsorted()) {
    const SortOrder* now = metadata.DefaultSortOrder();
    if (now == nullptr || now->fields != order_->fields) {
      SortOrder added = *order_;
      added.order_id = kUnsortedOrderId + 1;
      std::optional<int32_t> earlier;
      for (const SortOrder& order : metadata.sort_orders) {
        if (order.fields == added.fields) earlier = order.order_id;
        added.order_id = std::max(added.order_id, order.order_id + 1);
      }
      if (!earlier) planned.updates.push_back(AddSortOrder{added});
      planned.updates.push_back(SetDefaultSortOrder{earlier.value_or(kLastAdded)});
    }
  }
  return planned;
}

}  // namespace databox::iceberg
