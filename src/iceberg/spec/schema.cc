#include "iceberg/spec/schema.h"

#include <algorithm>
#include <functional>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "iceberg/spec/json_internal.h"

namespace databox::iceberg {

namespace {

//! Visits every field at any depth with its dotted name; stops when `visit` returns true.
bool VisitFields(const std::vector<NestedField>& fields, const std::string& prefix,
                 const std::function<bool(const NestedField&, const std::string&)>& visit) {
  for (const auto& f : fields) {
    const std::string name = prefix.empty() ? f.name : prefix + "." + f.name;
    if (visit(f, name)) return true;
    if (VisitFields(f.type.fields(), name, visit)) return true;
  }
  return false;
}

}  // namespace

const NestedField* Schema::FindFieldById(int32_t id) const {
  const NestedField* found = nullptr;
  VisitFields(fields_, "", [&](const NestedField& f, const std::string&) {
    if (f.id != id) return false;
    found = &f;
    return true;
  });
  return found;
}

const NestedField* Schema::FindFieldByName(std::string_view dotted_name) const {
  const NestedField* found = nullptr;
  VisitFields(fields_, "", [&](const NestedField& f, const std::string& name) {
    if (name != dotted_name) return false;
    found = &f;
    return true;
  });
  return found;
}

std::string Schema::FindNameById(int32_t id) const {
  std::string found;
  VisitFields(fields_, "", [&](const NestedField& f, const std::string& name) {
    if (f.id != id) return false;
    found = name;
    return true;
  });
  return found;
}

int32_t Schema::HighestFieldId() const {
  int32_t highest = 0;
  VisitFields(fields_, "", [&](const NestedField& f, const std::string&) {
    highest = std::max(highest, f.id);
    return false;
  });
  return highest;
}

Status Schema::Validate() const {
  std::set<int32_t> seen;
  int32_t duplicate = -1;
  VisitFields(fields_, "", [&](const NestedField& f, const std::string&) {
    if (seen.insert(f.id).second) return false;
    duplicate = f.id;
    return true;
  });
  const std::string where = "schema " + std::to_string(schema_id_);
  if (duplicate >= 0) {
    return MakeError(ErrorKind::kData,
                     where + ": field id " + std::to_string(duplicate) +
                         " is used twice; every field, element, key and value needs its own id");
  }
  for (int32_t id : identifier_field_ids_) {
    const NestedField* f = FindFieldById(id);
    if (f == nullptr || !f->required || !f->type.is_primitive()) {
      return MakeError(ErrorKind::kData, where + ": identifier field id " + std::to_string(id) +
                                             " must name a required primitive column");
    }
  }
  return Ok();
}

void AssignFreshFieldIds(std::vector<NestedField>& fields, int32_t& next_id,
                         std::unordered_map<int32_t, int32_t>* old_to_new) {
  for (auto& f : fields) {
    if (old_to_new != nullptr) (*old_to_new)[f.id] = next_id;
    f.id = next_id++;
  }
  for (auto& f : fields) AssignFreshFieldIds(f.type.mutable_fields(), next_id, old_to_new);
}

nlohmann::json Schema::ToJson() const {
  nlohmann::json j = AsStruct().ToJson();
  j["schema-id"] = schema_id_;
  if (!identifier_field_ids_.empty()) j["identifier-field-ids"] = identifier_field_ids_;
  return j;
}

Result<Schema> Schema::FromJson(const nlohmann::json& json) {
  DATABOX_ASSIGN_OR_RETURN(Type type, Type::FromJson(json));
  if (type.id() != TypeId::kStruct) {
    return internal::JsonError("schema", "a schema must be a struct type");
  }
  // v1 schemas may omit schema-id; 0 is the spec's default for the single schema.
  DATABOX_ASSIGN_OR_RETURN(std::optional<int32_t> id,
                           internal::GetOptionalInt32(json, "schema-id", "schema"));
  std::vector<int32_t> identifiers;
  if (auto it = json.find("identifier-field-ids"); it != json.end() && !it->is_null()) {
    if (!it->is_array())
      return internal::JsonError("schema", "\"identifier-field-ids\" must be an array");
    for (const auto& v : *it) {
      if (!v.is_number_integer()) {
        return internal::JsonError("schema", "\"identifier-field-ids\" must hold integers");
      }
      identifiers.push_back(v.get<int32_t>());
    }
  }
  return Schema(id.value_or(0), std::move(type.mutable_fields()), std::move(identifiers));
}

}  // namespace databox::iceberg
