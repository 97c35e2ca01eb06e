#include "iceberg/layout_update.h"

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
  const PartitionSpec* current = metadata.DefaultSpec();
  if (current == nullptr || !SameLayout(*current, spec_)) {
    planned.updates.push_back(AddPartitionSpec{WithEvolvedFieldIds(metadata, spec_)});
    planned.updates.push_back(SetDefaultSpec{kLastAdded});
  }
  if (order_ && !order_->is_unsorted()) {
    const SortOrder* now = metadata.DefaultSortOrder();
    if (now == nullptr || now->fields != order_->fields) {
      planned.updates.push_back(AddSortOrder{*order_});
      planned.updates.push_back(SetDefaultSortOrder{kLastAdded});
    }
  }
  return planned;
}

}  // namespace databox::iceberg
