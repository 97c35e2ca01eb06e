// The request sequences of a rest_json resource and the record budget of each: one sequence,
// or, with a refinement's reserved query on, the main sequence and the reserved one sharing the
// resource's max_records (docs/registry.md, "Refinements").
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "registry/model.h"

namespace databox::source {

//! One request sequence: params added to the resource's, and the records it may keep.
struct QueryPlan {
  std::map<std::string, std::string> params;  //!< empty for the main sequence
  std::optional<int64_t> max_records;         //!< nullopt = unlimited
};

//! The sequences of `resource`, main first. A reserved query runs only when the refinement is on,
//! max_records is set and at least reserve.min_total, and its share
//! min(cap, max_records / divisor) is positive; the main sequence then gets the rest.
std::vector<QueryPlan> PlanQueries(const registry::Resource& resource);

//! True when rows of `resource` may repeat a key across its sequences (a reserved query is
//! declared): a row of a later query whose key an earlier query returned is dropped.
bool DeduplicatesAcrossQueries(const registry::Resource& resource);

}  // namespace databox::source
