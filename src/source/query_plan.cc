#include "source/query_plan.h"

#include <algorithm>

namespace databox::source {

std::vector<QueryPlan> PlanQueries(const registry::Resource& resource) {
  const std::optional<int64_t> max = resource.pagination.max_records;
  const registry::ReservedQuery* reserve =
      resource.refine && resource.refine->reserve ? &*resource.refine->reserve : nullptr;
  if (reserve == nullptr || !max || *max < reserve->min_total) return {QueryPlan{{}, max}};
  const int64_t reserved = std::min(reserve->cap, *max / reserve->divisor);
  if (reserved <= 0) return {QueryPlan{{}, max}};
  return {QueryPlan{{}, *max - reserved}, QueryPlan{reserve->params, reserved}};
}

bool DeduplicatesAcrossQueries(const registry::Resource& resource) {
  return resource.refine && resource.refine->reserve && !resource.primary_key.empty();
}

}  // namespace databox::source
