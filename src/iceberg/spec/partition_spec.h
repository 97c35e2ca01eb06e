// Partition specs (table spec "Partitioning").
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "common/error.h"
#include "iceberg/spec/schema.h"
#include "iceberg/spec/transform.h"

namespace databox::iceberg {

//! Partition field ids start here (v1 convention kept in v2): last-partition-id of an
//! unpartitioned table is kPartitionDataIdStart - 1.
inline constexpr int32_t kPartitionDataIdStart = 1000;

struct PartitionField {
  int32_t source_id = 0;
  int32_t field_id = 0;
  std::string name;
  Transform transform = Transform::Identity();

  //! {"source-id":..,"field-id":..,"name":..,"transform":".."}
  nlohmann::json ToJson() const;
  static Result<PartitionField> FromJson(const nlohmann::json& json);
  friend bool operator==(const PartitionField&, const PartitionField&) = default;
};

struct PartitionSpec {
  int32_t spec_id = 0;
  std::vector<PartitionField> fields;

  static PartitionSpec Unpartitioned() { return PartitionSpec{}; }
  bool is_unpartitioned() const { return fields.empty(); }
  //! Highest partition field id, or kPartitionDataIdStart - 1 when there are none.
  int32_t LastAssignedFieldId() const;
  //! The partition tuple type: a struct of optional fields named like the partition fields
  //! with their field ids and each transform's result type.
  Result<Type> PartitionType(const Schema& schema) const;
  //! Checks source columns exist and accept their transforms.
  Status Validate(const Schema& schema) const;
  //! Same fields (spec id ignored).
  bool SameFields(const PartitionSpec& other) const { return fields == other.fields; }

  //! {"spec-id":..,"fields":[..]}
  nlohmann::json ToJson() const;
  static Result<PartitionSpec> FromJson(const nlohmann::json& json);
  friend bool operator==(const PartitionSpec&, const PartitionSpec&) = default;
};

}  // namespace databox::iceberg
