#include "iceberg/spec/json_internal.h"

#include <limits>
#include <string>

namespace databox::iceberg::internal {

std::unexpected<Error> JsonError(std::string_view what, std::string_view problem) {
  return MakeError(ErrorKind::kData, std::string(what) + ": " + std::string(problem) +
                                         "; check the Iceberg metadata/request JSON");
}

Status ExpectObject(const nlohmann::json& json, std::string_view what) {
  if (!json.is_object())
    return JsonError(what, "expected a JSON object, got " + std::string(json.type_name()));
  return Ok();
}

Result<const nlohmann::json*> Member(const nlohmann::json& json, std::string_view key,
                                     std::string_view what) {
  DATABOX_RETURN_IF_ERROR(ExpectObject(json, what));
  auto it = json.find(key);
  if (it == json.end() || it->is_null()) {
    return JsonError(what, "missing required field \"" + std::string(key) + "\"");
  }
  return &*it;
}

namespace {

Result<int64_t> AsInt64(const nlohmann::json& v, std::string_view key, std::string_view what) {
  if (!v.is_number_integer()) {
    return JsonError(what, "field \"" + std::string(key) + "\" must be an integer");
  }
  if (v.is_number_unsigned() &&
      v.get<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
    return JsonError(what, "field \"" + std::string(key) + "\" is out of range");
  }
  return v.get<int64_t>();
}

Result<int32_t> Narrow(int64_t v, std::string_view key, std::string_view what) {
  if (v < std::numeric_limits<int32_t>::min() || v > std::numeric_limits<int32_t>::max()) {
    return JsonError(what, "field \"" + std::string(key) + "\" does not fit in 32 bits");
  }
  return static_cast<int32_t>(v);
}

}  // namespace

Result<int64_t> GetInt64(const nlohmann::json& json, std::string_view key, std::string_view what) {
  DATABOX_ASSIGN_OR_RETURN(const nlohmann::json* v, Member(json, key, what));
  return AsInt64(*v, key, what);
}

Result<int32_t> GetInt32(const nlohmann::json& json, std::string_view key, std::string_view what) {
  DATABOX_ASSIGN_OR_RETURN(int64_t v, GetInt64(json, key, what));
  return Narrow(v, key, what);
}

Result<std::string> GetString(const nlohmann::json& json, std::string_view key,
                              std::string_view what) {
  DATABOX_ASSIGN_OR_RETURN(const nlohmann::json* v, Member(json, key, what));
  if (!v->is_string())
    return JsonError(what, "field \"" + std::string(key) + "\" must be a string");
  return v->get<std::string>();
}

Result<bool> GetBool(const nlohmann::json& json, std::string_view key, std::string_view what) {
  DATABOX_ASSIGN_OR_RETURN(const nlohmann::json* v, Member(json, key, what));
  if (!v->is_boolean())
    return JsonError(what, "field \"" + std::string(key) + "\" must be a boolean");
  return v->get<bool>();
}

Result<std::optional<int64_t>> GetOptionalInt64(const nlohmann::json& json, std::string_view key,
                                                std::string_view what) {
  DATABOX_RETURN_IF_ERROR(ExpectObject(json, what));
  auto it = json.find(key);
  if (it == json.end() || it->is_null()) return std::optional<int64_t>();
  DATABOX_ASSIGN_OR_RETURN(int64_t v, AsInt64(*it, key, what));
  return std::optional<int64_t>(v);
}

Result<std::optional<int32_t>> GetOptionalInt32(const nlohmann::json& json, std::string_view key,
                                                std::string_view what) {
  DATABOX_ASSIGN_OR_RETURN(std::optional<int64_t> v, GetOptionalInt64(json, key, what));
  if (!v) return std::optional<int32_t>();
  DATABOX_ASSIGN_OR_RETURN(int32_t n, Narrow(*v, key, what));
  return std::optional<int32_t>(n);
}

Result<std::optional<std::string>> GetOptionalString(const nlohmann::json& json,
                                                     std::string_view key, std::string_view what) {
  DATABOX_RETURN_IF_ERROR(ExpectObject(json, what));
  auto it = json.find(key);
  if (it == json.end() || it->is_null()) return std::optional<std::string>();
  if (!it->is_string())
    return JsonError(what, "field \"" + std::string(key) + "\" must be a string");
  return std::optional<std::string>(it->get<std::string>());
}

}  // namespace databox::iceberg::internal
