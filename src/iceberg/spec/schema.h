// Iceberg table schema: a top-level struct with a schema id and identifier fields.
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/error.h"
#include "iceberg/spec/types.h"

namespace databox::iceberg {

class Schema {
 public:
  Schema() = default;
  Schema(int32_t schema_id, std::vector<NestedField> fields,
         std::vector<int32_t> identifier_field_ids = {})
      : schema_id_(schema_id),
        fields_(std::move(fields)),
        identifier_field_ids_(std::move(identifier_field_ids)) {}

  int32_t schema_id() const { return schema_id_; }
  void set_schema_id(int32_t id) { schema_id_ = id; }
  const std::vector<NestedField>& fields() const { return fields_; }
  std::vector<NestedField>& mutable_fields() { return fields_; }
  const std::vector<int32_t>& identifier_field_ids() const { return identifier_field_ids_; }
  void set_identifier_field_ids(std::vector<int32_t> ids) {
    identifier_field_ids_ = std::move(ids);
  }

  //! The schema as a struct type (fields only).
  Type AsStruct() const { return Type::Struct(fields_); }
  //! The field with this id at any depth (struct fields, list elements, map keys/values).
  const NestedField* FindFieldById(int32_t id) const;
  //! The field at a dotted path ("a.b"; list elements are "l.element", maps "m.key"/"m.value").
  const NestedField* FindFieldByName(std::string_view dotted_name) const;
  //! The dotted name of the field with this id, or "" if absent.
  std::string FindNameById(int32_t id) const;
  //! Highest field id at any depth; 0 for an empty schema.
  int32_t HighestFieldId() const;
  //! Checks that field ids are unique and identifier fields exist, are required primitives.
  Status Validate() const;

  //! {"type":"struct","schema-id":..,"identifier-field-ids":[..],"fields":[..]}
  nlohmann::json ToJson() const;
  static Result<Schema> FromJson(const nlohmann::json& json);

  //! Same fields and identifier fields (schema id ignored).
  bool SameStructure(const Schema& other) const {
    return fields_ == other.fields_ && identifier_field_ids_ == other.identifier_field_ids_;
  }
  friend bool operator==(const Schema& a, const Schema& b) = default;

 private:
  int32_t schema_id_ = 0;
  std::vector<NestedField> fields_;
  std::vector<int32_t> identifier_field_ids_;
};

//! Renumbers `fields` from `next_id` (advanced past the last id used), a struct's own fields
//! before their children, as Iceberg's create does. Records old id -> new id if asked.
void AssignFreshFieldIds(std::vector<NestedField>& fields, int32_t& next_id,
                         std::unordered_map<int32_t, int32_t>* old_to_new = nullptr);

}  // namespace databox::iceberg
