#include "iceberg/metadata/table_requirement.h"

#include <nlohmann/json.hpp>
#include <string>

#include "iceberg/spec/json_internal.h"

namespace databox::iceberg {

namespace {

constexpr const char* kRequirementWhat = "table requirement";

std::unexpected<Error> Failed(const TableRequirement& r, const std::string& detail) {
  return MakeError(ErrorKind::kConflict,
                   std::string("requirement ") + TableRequirementType(r) + " failed: " + detail +
                       "; the table changed concurrently: reload it and re-plan the commit");
}

std::string OptionalId(std::optional<int64_t> id) { return id ? std::to_string(*id) : "none"; }

}  // namespace

const char* TableRequirementType(const TableRequirement& requirement) {
  static constexpr const char* kNames[] = {"assert-create",
                                           "assert-table-uuid",
                                           "assert-ref-snapshot-id",
                                           "assert-last-assigned-field-id",
                                           "assert-current-schema-id",
                                           "assert-last-assigned-partition-id",
                                           "assert-default-spec-id",
                                           "assert-default-sort-order-id"};
  static_assert(std::size(kNames) == std::variant_size_v<TableRequirement>);
  return kNames[requirement.index()];
}

nlohmann::json TableRequirementToJson(const TableRequirement& requirement) {
  nlohmann::json j = {{"type", TableRequirementType(requirement)}};
  std::visit(
      [&](const auto& r) {
        using T = std::decay_t<decltype(r)>;
        if constexpr (std::is_same_v<T, AssertTableUuid>) {
          j["uuid"] = r.uuid;
        } else if constexpr (std::is_same_v<T, AssertRefSnapshotId>) {
          j["ref"] = r.ref;
          j["snapshot-id"] =
              r.snapshot_id ? nlohmann::json(*r.snapshot_id) : nlohmann::json(nullptr);
        } else if constexpr (std::is_same_v<T, AssertLastAssignedFieldId>) {
          j["last-assigned-field-id"] = r.last_assigned_field_id;
        } else if constexpr (std::is_same_v<T, AssertCurrentSchemaId>) {
          j["current-schema-id"] = r.current_schema_id;
        } else if constexpr (std::is_same_v<T, AssertLastAssignedPartitionId>) {
          j["last-assigned-partition-id"] = r.last_assigned_partition_id;
        } else if constexpr (std::is_same_v<T, AssertDefaultSpecId>) {
          j["default-spec-id"] = r.default_spec_id;
        } else if constexpr (std::is_same_v<T, AssertDefaultSortOrderId>) {
          j["default-sort-order-id"] = r.default_sort_order_id;
        }
      },
      requirement);
  return j;
}

Result<TableRequirement> TableRequirementFromJson(const nlohmann::json& json) {
  DATABOX_ASSIGN_OR_RETURN(std::string type, internal::GetString(json, "type", kRequirementWhat));
  const std::string what = "requirement " + type;
  if (type == "assert-create") return AssertCreate{};
  if (type == "assert-table-uuid") {
    DATABOX_ASSIGN_OR_RETURN(std::string uuid, internal::GetString(json, "uuid", what));
    return AssertTableUuid{std::move(uuid)};
  }
  if (type == "assert-ref-snapshot-id") {
    DATABOX_ASSIGN_OR_RETURN(std::string ref, internal::GetString(json, "ref", what));
    DATABOX_ASSIGN_OR_RETURN(std::optional<int64_t> id,
                             internal::GetOptionalInt64(json, "snapshot-id", what));
    return AssertRefSnapshotId{std::move(ref), id};
  }
  if (type == "assert-last-assigned-field-id") {
    DATABOX_ASSIGN_OR_RETURN(int32_t id, internal::GetInt32(json, "last-assigned-field-id", what));
    return AssertLastAssignedFieldId{id};
  }
  if (type == "assert-current-schema-id") {
    DATABOX_ASSIGN_OR_RETURN(int32_t id, internal::GetInt32(json, "current-schema-id", what));
    return AssertCurrentSchemaId{id};
  }
  if (type == "assert-last-assigned-partition-id") {
    DATABOX_ASSIGN_OR_RETURN(int32_t id,
                             internal::GetInt32(json, "last-assigned-partition-id", what));
    return AssertLastAssignedPartitionId{id};
  }
  if (type == "assert-default-spec-id") {
    DATABOX_ASSIGN_OR_RETURN(int32_t id, internal::GetInt32(json, "default-spec-id", what));
    return AssertDefaultSpecId{id};
  }
  if (type == "assert-default-sort-order-id") {
    DATABOX_ASSIGN_OR_RETURN(int32_t id, internal::GetInt32(json, "default-sort-order-id", what));
    return AssertDefaultSortOrderId{id};
  }
  return internal::JsonError(kRequirementWhat, "unknown requirement type \"" + type + "\"");
}

Status CheckRequirements(const TableMetadata* current,
                         std::span<const TableRequirement> requirements) {
  for (const auto& requirement : requirements) {
    if (std::holds_alternative<AssertCreate>(requirement)) {
      if (current != nullptr) return Failed(requirement, "the table already exists");
      continue;
    }
    if (current == nullptr) return Failed(requirement, "the table does not exist");
    const TableMetadata& md = *current;
    auto mismatch = [&](const std::string& field, const std::string& expected,
                        const std::string& actual) -> Status {
      if (expected == actual) return Ok();
      return Failed(requirement, field + " is " + actual + ", expected " + expected);
    };
    Status status = std::visit(
        [&](const auto& r) -> Status {
          using T = std::decay_t<decltype(r)>;
          if constexpr (std::is_same_v<T, AssertTableUuid>) {
            return mismatch("table-uuid", r.uuid, md.table_uuid);
          } else if constexpr (std::is_same_v<T, AssertRefSnapshotId>) {
            const SnapshotRef* ref = md.RefByName(r.ref);
            const std::string actual = ref ? std::to_string(ref->snapshot_id) : "none";
            return mismatch("snapshot of ref \"" + r.ref + "\"", OptionalId(r.snapshot_id), actual);
          } else if constexpr (std::is_same_v<T, AssertLastAssignedFieldId>) {
            return mismatch("last-column-id", std::to_string(r.last_assigned_field_id),
                            std::to_string(md.last_column_id));
          } else if constexpr (std::is_same_v<T, AssertCurrentSchemaId>) {
            return mismatch("current-schema-id", std::to_string(r.current_schema_id),
                            std::to_string(md.current_schema_id));
          } else if constexpr (std::is_same_v<T, AssertLastAssignedPartitionId>) {
            return mismatch("last-partition-id", std::to_string(r.last_assigned_partition_id),
                            std::to_string(md.last_partition_id));
          } else if constexpr (std::is_same_v<T, AssertDefaultSpecId>) {
            return mismatch("default-spec-id", std::to_string(r.default_spec_id),
                            std::to_string(md.default_spec_id));
          } else if constexpr (std::is_same_v<T, AssertDefaultSortOrderId>) {
            return mismatch("default-sort-order-id", std::to_string(r.default_sort_order_id),
                            std::to_string(md.default_sort_order_id));
          } else {
            return Ok();
          }
        },
        requirement);
    DATABOX_RETURN_IF_ERROR(status);
  }
  return Ok();
}

}  // namespace databox::iceberg
