#include "iceberg/spec/sort_order.h"

#include <nlohmann/json.hpp>
#include <string>

#include "iceberg/spec/json_internal.h"

namespace databox::iceberg {

nlohmann::json SortField::ToJson() const {
  return {{"transform", transform.ToString()},
          {"source-id", source_id},
          {"direction", direction == SortDirection::kAsc ? "asc" : "desc"},
          {"null-order", null_order == NullOrder::kNullsFirst ? "nulls-first" : "nulls-last"}};
}

Result<SortField> SortField::FromJson(const nlohmann::json& json) {
  SortField f;
  DATABOX_ASSIGN_OR_RETURN(f.source_id, internal::GetInt32(json, "source-id", "sort field"));
  DATABOX_ASSIGN_OR_RETURN(std::string transform,
                           internal::GetString(json, "transform", "sort field"));
  DATABOX_ASSIGN_OR_RETURN(f.transform, Transform::Parse(transform));
  DATABOX_ASSIGN_OR_RETURN(std::string direction,
                           internal::GetString(json, "direction", "sort field"));
  if (direction != "asc" && direction != "desc") {
    return internal::JsonError("sort field", "\"direction\" must be \"asc\" or \"desc\"");
  }
  f.direction = direction == "asc" ? SortDirection::kAsc : SortDirection::kDesc;
  DATABOX_ASSIGN_OR_RETURN(std::string nulls,
                           internal::GetString(json, "null-order", "sort field"));
  if (nulls != "nulls-first" && nulls != "nulls-last") {
    return internal::JsonError("sort field",
                               "\"null-order\" must be \"nulls-first\" or \"nulls-last\"");
  }
  f.null_order = nulls == "nulls-first" ? NullOrder::kNullsFirst : NullOrder::kNullsLast;
  return f;
}

nlohmann::json SortOrder::ToJson() const {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& f : fields) out.push_back(f.ToJson());
  return {{"order-id", order_id}, {"fields", std::move(out)}};
}

Result<SortOrder> SortOrder::FromJson(const nlohmann::json& json) {
  SortOrder order;
  DATABOX_ASSIGN_OR_RETURN(order.order_id, internal::GetInt32(json, "order-id", "sort order"));
  DATABOX_ASSIGN_OR_RETURN(const nlohmann::json* fields,
                           internal::Member(json, "fields", "sort order"));
  if (!fields->is_array()) return internal::JsonError("sort order", "\"fields\" must be an array");
  for (const auto& f : *fields) {
    DATABOX_ASSIGN_OR_RETURN(SortField field, SortField::FromJson(f));
    order.fields.push_back(std::move(field));
  }
  return order;
}

}  // namespace databox::iceberg
