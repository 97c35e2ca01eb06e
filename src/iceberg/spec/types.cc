#include "iceberg/spec/types.h"

#include <charconv>
#include <nlohmann/json.hpp>
#include <string>

#include "common/enum_names.h"
#include "iceberg/spec/json_internal.h"

namespace databox::iceberg {

using internal::JsonError;

namespace {

constexpr int32_t kMaxDecimalPrecision = 38;

//! The types named by one word; decimal, fixed and the nested types name themselves in ToString.
constexpr EnumNames<TypeId, 12> kPrimitiveNames{{{TypeId::kBoolean, "boolean"},
                                                 {TypeId::kInt, "int"},
                                                 {TypeId::kLong, "long"},
                                                 {TypeId::kFloat, "float"},
                                                 {TypeId::kDouble, "double"},
                                                 {TypeId::kDate, "date"},
                                                 {TypeId::kTime, "time"},
                                                 {TypeId::kTimestamp, "timestamp"},
                                                 {TypeId::kTimestampTz, "timestamptz"},
                                                 {TypeId::kString, "string"},
                                                 {TypeId::kUuid, "uuid"},
                                                 {TypeId::kBinary, "binary"}}};
static_assert(DistinctNames(kPrimitiveNames));

std::string_view Trim(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

std::optional<int32_t> ParseInt(std::string_view s) {
  s = Trim(s);
  int32_t v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

}  // namespace

Type Type::Decimal(int32_t precision, int32_t scale) {
  Type t(TypeId::kDecimal);
  t.precision_ = precision;
  t.scale_ = scale;
  return t;
}

Type Type::Fixed(int32_t length) {
  Type t(TypeId::kFixed);
  t.length_ = length;
  return t;
}

Type Type::Struct(std::vector<NestedField> fields) {
  Type t(TypeId::kStruct);
  t.fields_ = std::move(fields);
  return t;
}

Type Type::List(int32_t element_id, bool element_required, Type element) {
  Type t(TypeId::kList);
  t.fields_.push_back(NestedField{element_id, "element", element_required, std::move(element), {}});
  return t;
}

Type Type::Map(int32_t key_id, Type key, int32_t value_id, bool value_required, Type value) {
  Type t(TypeId::kMap);
  t.fields_.push_back(NestedField{key_id, "key", true, std::move(key), {}});
  t.fields_.push_back(NestedField{value_id, "value", value_required, std::move(value), {}});
  return t;
}

const NestedField& Type::element() const { return fields_.at(0); }
const NestedField& Type::key() const { return fields_.at(0); }
const NestedField& Type::value() const { return fields_.at(1); }

bool operator==(const Type& a, const Type& b) {
  return a.id_ == b.id_ && a.precision_ == b.precision_ && a.scale_ == b.scale_ &&
         a.length_ == b.length_ && a.fields_ == b.fields_;
}

std::string Type::ToString() const {
  switch (id_) {
    case TypeId::kDecimal:
      return "decimal(" + std::to_string(precision_) + ", " + std::to_string(scale_) + ")";
    case TypeId::kFixed:
      return "fixed[" + std::to_string(length_) + "]";
    case TypeId::kStruct:
      return "struct";
    case TypeId::kList:
      return "list";
    case TypeId::kMap:
      return "map";
    default:
      break;
  }
  return std::string(NameOf(kPrimitiveNames, id_, "unknown"));
}

Result<Type> Type::ParsePrimitive(std::string_view text) {
  const std::string_view s = Trim(text);
  if (auto id = ValueOf(kPrimitiveNames, s)) return Type(*id);
  if (s.starts_with("decimal(") && s.ends_with(")")) {
    const std::string_view inner = s.substr(8, s.size() - 9);
    const auto comma = inner.find(',');
    if (comma != std::string_view::npos) {
      auto p = ParseInt(inner.substr(0, comma));
      auto sc = ParseInt(inner.substr(comma + 1));
      if (p && sc && *p >= 1 && *p <= kMaxDecimalPrecision && *sc >= 0 && *sc <= *p) {
        return Decimal(*p, *sc);
      }
    }
    return JsonError("type \"" + std::string(s) + "\"",
                     "decimal needs 1 <= precision <= 38 and 0 <= scale <= precision");
  }
  if (s.starts_with("fixed[") && s.ends_with("]")) {
    auto n = ParseInt(s.substr(6, s.size() - 7));
    if (n && *n > 0) return Fixed(*n);
    return JsonError("type \"" + std::string(s) + "\"", "fixed length must be a positive integer");
  }
  return JsonError("type \"" + std::string(s) + "\"",
                   "unknown primitive type (v2 types: boolean, int, long, float, double, "
                   "decimal(P,S), date, time, timestamp, timestamptz, string, uuid, fixed[L], "
                   "binary)");
}

nlohmann::json Type::ToJson() const {
  switch (id_) {
    case TypeId::kStruct: {
      nlohmann::json fields = nlohmann::json::array();
      for (const auto& f : fields_) fields.push_back(f.ToJson());
      return {{"type", "struct"}, {"fields", std::move(fields)}};
    }
    case TypeId::kList:
      return {{"type", "list"},
              {"element-id", element().id},
              {"element", element().type.ToJson()},
              {"element-required", element().required}};
    case TypeId::kMap:
      return {{"type", "map"},
              {"key-id", key().id},
              {"key", key().type.ToJson()},
              {"value-id", value().id},
              {"value", value().type.ToJson()},
              {"value-required", value().required}};
    default:
      return ToString();
  }
}

Result<Type> Type::FromJson(const nlohmann::json& json) {
  if (json.is_string()) return ParsePrimitive(json.get<std::string>());
  DATABOX_ASSIGN_OR_RETURN(std::string kind, internal::GetString(json, "type", "nested type"));
  if (kind == "struct") {
    DATABOX_ASSIGN_OR_RETURN(const nlohmann::json* fields,
                             internal::Member(json, "fields", "struct type"));
    if (!fields->is_array()) return JsonError("struct type", "\"fields\" must be an array");
    std::vector<NestedField> out;
    out.reserve(fields->size());
    for (const auto& f : *fields) {
      DATABOX_ASSIGN_OR_RETURN(NestedField field, NestedField::FromJson(f));
      out.push_back(std::move(field));
    }
    return Struct(std::move(out));
  }
  if (kind == "list") {
    DATABOX_ASSIGN_OR_RETURN(int32_t id, internal::GetInt32(json, "element-id", "list type"));
    DATABOX_ASSIGN_OR_RETURN(bool required,
                             internal::GetBool(json, "element-required", "list type"));
    DATABOX_ASSIGN_OR_RETURN(const nlohmann::json* element,
                             internal::Member(json, "element", "list type"));
    DATABOX_ASSIGN_OR_RETURN(Type element_type, FromJson(*element));
    return List(id, required, std::move(element_type));
  }
  if (kind == "map") {
    DATABOX_ASSIGN_OR_RETURN(int32_t key_id, internal::GetInt32(json, "key-id", "map type"));
    DATABOX_ASSIGN_OR_RETURN(int32_t value_id, internal::GetInt32(json, "value-id", "map type"));
    DATABOX_ASSIGN_OR_RETURN(bool required, internal::GetBool(json, "value-required", "map type"));
    DATABOX_ASSIGN_OR_RETURN(const nlohmann::json* key, internal::Member(json, "key", "map type"));
    DATABOX_ASSIGN_OR_RETURN(const nlohmann::json* value,
                             internal::Member(json, "value", "map type"));
    DATABOX_ASSIGN_OR_RETURN(Type key_type, FromJson(*key));
    DATABOX_ASSIGN_OR_RETURN(Type value_type, FromJson(*value));
    return Map(key_id, std::move(key_type), value_id, required, std::move(value_type));
  }
  return JsonError("nested type",
                   "unknown \"type\": \"" + kind + "\" (expected struct, list, map)");
}

nlohmann::json NestedField::ToJson() const {
  nlohmann::json j = {{"id", id}, {"name", name}, {"required", required}, {"type", type.ToJson()}};
  if (doc) j["doc"] = *doc;
  return j;
}

Result<NestedField> NestedField::FromJson(const nlohmann::json& json) {
  NestedField f;
  DATABOX_ASSIGN_OR_RETURN(f.id, internal::GetInt32(json, "id", "struct field"));
  DATABOX_ASSIGN_OR_RETURN(f.name, internal::GetString(json, "name", "struct field"));
  const std::string what = "struct field \"" + f.name + "\"";
  DATABOX_ASSIGN_OR_RETURN(f.required, internal::GetBool(json, "required", what));
  DATABOX_ASSIGN_OR_RETURN(const nlohmann::json* type, internal::Member(json, "type", what));
  auto parsed = Type::FromJson(*type);
  if (!parsed) return std::unexpected(parsed.error().WithContext(what));
  f.type = std::move(*parsed);
  DATABOX_ASSIGN_OR_RETURN(f.doc, internal::GetOptionalString(json, "doc", what));
  return f;
}

}  // namespace databox::iceberg
