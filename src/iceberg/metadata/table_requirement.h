// Table requirements: the REST catalog spec's "TableRequirement" assertions checked
// atomically with a commit.
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <span>
#include <string>
#include <variant>

#include "common/error.h"
#include "iceberg/metadata/table_metadata.h"

namespace databox::iceberg {

//! The table must not exist.
struct AssertCreate {
  friend bool operator==(const AssertCreate&, const AssertCreate&) = default;
};
struct AssertTableUuid {
  std::string uuid;
  friend bool operator==(const AssertTableUuid&, const AssertTableUuid&) = default;
};
//! `ref` must point at `snapshot_id`; nullopt means the ref must not exist.
struct AssertRefSnapshotId {
  std::string ref;
  std::optional<int64_t> snapshot_id;
  friend bool operator==(const AssertRefSnapshotId&, const AssertRefSnapshotId&) = default;
};
struct AssertLastAssignedFieldId {
  int32_t last_assigned_field_id = 0;
  friend bool operator==(const AssertLastAssignedFieldId&,
                         const AssertLastAssignedFieldId&) = default;
};
struct AssertCurrentSchemaId {
  int32_t current_schema_id = 0;
  friend bool operator==(const AssertCurrentSchemaId&, const AssertCurrentSchemaId&) = default;
};
struct AssertLastAssignedPartitionId {
  int32_t last_assigned_partition_id = 0;
  friend bool operator==(const AssertLastAssignedPartitionId&,
                         const AssertLastAssignedPartitionId&) = default;
};
struct AssertDefaultSpecId {
  int32_t default_spec_id = 0;
  friend bool operator==(const AssertDefaultSpecId&, const AssertDefaultSpecId&) = default;
};
struct AssertDefaultSortOrderId {
  int32_t default_sort_order_id = 0;
  friend bool operator==(const AssertDefaultSortOrderId&,
                         const AssertDefaultSortOrderId&) = default;
};

using TableRequirement =
    std::variant<AssertCreate, AssertTableUuid, AssertRefSnapshotId, AssertLastAssignedFieldId,
                 AssertCurrentSchemaId, AssertLastAssignedPartitionId, AssertDefaultSpecId,
                 AssertDefaultSortOrderId>;

//! {"type":"assert-create"}, {"type":"assert-ref-snapshot-id","ref":..,"snapshot-id":..|null}, ...
nlohmann::json TableRequirementToJson(const TableRequirement& requirement);
Result<TableRequirement> TableRequirementFromJson(const nlohmann::json& json);
//! The REST type name ("assert-create", ...).
const char* TableRequirementType(const TableRequirement& requirement);

//! Checks every requirement against the current metadata (null = the table does not
//! exist). The first failure is returned as kConflict naming the requirement, the expected
//! and the actual value. Any requirement other than assert-create fails on a missing table.
Status CheckRequirements(const TableMetadata* current,
                         std::span<const TableRequirement> requirements);

}  // namespace databox::iceberg
