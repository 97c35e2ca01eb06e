#include "iceberg/spec/partition_spec.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>

#include "iceberg/spec/json_internal.h"

namespace databox::iceberg {

nlohmann::json PartitionField::ToJson() const {
  return {{"source-id", source_id},
          {"field-id", field_id},
          {"name", name},
          {"transform", transform.ToString()}};
}

Result<PartitionField> PartitionField::FromJson(const nlohmann::json& json) {
  PartitionField f;
  DATABOX_ASSIGN_OR_RETURN(f.name, internal::GetString(json, "name", "partition field"));
  const std::string what = "partition field \"" + f.name + "\"";
  DATABOX_ASSIGN_OR_RETURN(f.source_id, internal::GetInt32(json, "source-id", what));
  // v1 specs may omit field-id; callers (metadata v1 reader) assign 1000, 1001, ...
  DATABOX_ASSIGN_OR_RETURN(std::optional<int32_t> field_id,
                           internal::GetOptionalInt32(json, "field-id", what));
  f.field_id = field_id.value_or(-1);
  DATABOX_ASSIGN_OR_RETURN(std::string transform, internal::GetString(json, "transform", what));
  DATABOX_ASSIGN_OR_RETURN(f.transform, Transform::Parse(transform));
  return f;
}

int32_t PartitionSpec::LastAssignedFieldId() const {
  int32_t last = kPartitionDataIdStart - 1;
  for (const auto& f : fields) last = std::max(last, f.field_id);
  return last;
}

Result<Type> PartitionSpec::PartitionType(const Schema& schema) const {
  std::vector<NestedField> out;
  for (const auto& f : fields) {
    const NestedField* source = schema.FindFieldById(f.source_id);
    if (source == nullptr) {
      return MakeError(ErrorKind::kData, "partition field \"" + f.name + "\" refers to column id " +
                                             std::to_string(f.source_id) + ", which schema " +
                                             std::to_string(schema.schema_id()) + " lacks");
    }
    auto type = f.transform.ResultType(source->type);
    if (!type)
      return std::unexpected(type.error().WithContext("partition field \"" + f.name + "\""));
    out.push_back(NestedField{f.field_id, f.name, false, std::move(*type), {}});
  }
  return Type::Struct(std::move(out));
}

Status PartitionSpec::Validate(const Schema& schema) const {
  DATABOX_RETURN_IF_ERROR(PartitionType(schema));
  for (size_t i = 0; i < fields.size(); ++i) {
    for (size_t j = i + 1; j < fields.size(); ++j) {
      if (fields[i].name == fields[j].name || fields[i].field_id == fields[j].field_id) {
        return MakeError(ErrorKind::kData, "partition spec " + std::to_string(spec_id) +
                                               ": fields \"" + fields[i].name + "\" and \"" +
                                               fields[j].name + "\" share a name or field id");
      }
    }
  }
  return Ok();
}

nlohmann::json PartitionSpec::ToJson() const {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& f : fields) out.push_back(f.ToJson());
  return {{"spec-id", spec_id}, {"fields", std::move(out)}};
}

Result<PartitionSpec> PartitionSpec::FromJson(const nlohmann::json& json) {
  PartitionSpec spec;
  DATABOX_ASSIGN_OR_RETURN(std::optional<int32_t> id,
                           internal::GetOptionalInt32(json, "spec-id", "partition spec"));
  spec.spec_id = id.value_or(0);
  DATABOX_ASSIGN_OR_RETURN(const nlohmann::json* fields,
                           internal::Member(json, "fields", "partition spec"));
  if (!fields->is_array())
    return internal::JsonError("partition spec", "\"fields\" must be an array");
  for (const auto& f : *fields) {
    DATABOX_ASSIGN_OR_RETURN(PartitionField field, PartitionField::FromJson(f));
    spec.fields.push_back(std::move(field));
  }
  return spec;
}

}  // namespace databox::iceberg
