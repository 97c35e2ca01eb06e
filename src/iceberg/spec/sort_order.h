// Sort orders (table spec "Sorting"). Order id 0 is reserved for the unsorted order.
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <vector>

#include "common/error.h"
#include "iceberg/spec/transform.h"

namespace databox::iceberg {

enum class SortDirection { kAsc, kDesc };
enum class NullOrder { kNullsFirst, kNullsLast };

struct SortField {
  int32_t source_id = 0;
  Transform transform = Transform::Identity();
  SortDirection direction = SortDirection::kAsc;
  NullOrder null_order = NullOrder::kNullsFirst;

  //! {"transform":..,"source-id":..,"direction":"asc"|"desc","null-order":"nulls-first"|"nulls-last"}
  nlohmann::json ToJson() const;
  static Result<SortField> FromJson(const nlohmann::json& json);
  friend bool operator==(const SortField&, const SortField&) = default;
};

inline constexpr int32_t kUnsortedOrderId = 0;

struct SortOrder {
  int32_t order_id = kUnsortedOrderId;
  std::vector<SortField> fields;

  static SortOrder Unsorted() { return SortOrder{}; }
  bool is_unsorted() const { return fields.empty(); }

  //! {"order-id":..,"fields":[..]}
  nlohmann::json ToJson() const;
  static Result<SortOrder> FromJson(const nlohmann::json& json);
  friend bool operator==(const SortOrder&, const SortOrder&) = default;
};

}  // namespace databox::iceberg
