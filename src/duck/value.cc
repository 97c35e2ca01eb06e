#include "duck/value.h"

#include <string>

namespace databox::duck {
namespace {

Result<Value> Wrap(duckdb_value child, const char* what, uint64_t i) {
  if (child == nullptr) {
    return MakeError(ErrorKind::kInternal,
                     std::string("DuckDB value has no ") + what + " at index " + std::to_string(i) +
                         ": check the value's type and size before reading children");
  }
  return Value(internal::ValuePtr(child));
}

}  // namespace

bool Value::IsNull() const { return duckdb_is_null_value(value_.get()); }

std::string Value::ToString() const {
  if (IsNull()) return "NULL";
  internal::DuckStringPtr text(duckdb_get_varchar(value_.get()));
  return text ? std::string(text.get()) : std::string();
}

uint64_t Value::MapSize() const { return duckdb_get_map_size(value_.get()); }

Result<Value> Value::MapKey(uint64_t i) const {
  return Wrap(duckdb_get_map_key(value_.get(), i), "map key", i);
}

Result<Value> Value::MapValue(uint64_t i) const {
  return Wrap(duckdb_get_map_value(value_.get(), i), "map value", i);
}

uint64_t Value::ListSize() const { return duckdb_get_list_size(value_.get()); }

Result<Value> Value::ListChild(uint64_t i) const {
  return Wrap(duckdb_get_list_child(value_.get(), i), "list element", i);
}

Result<Value> Value::StructChild(uint64_t i) const {
  return Wrap(duckdb_get_struct_child(value_.get(), i), "struct field", i);
}

}  // namespace databox::duck
