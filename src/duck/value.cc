#include "duck/value.h"

#include <string>

#include "duck/vector_reader_internal.h"

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

uint64_t Value::StructSize() const {
  if (type() != TypeId::kStruct) return 0;
  return duckdb_struct_type_child_count(duckdb_get_value_type(value_.get()));
}

std::string Value::StructFieldName(uint64_t i) const {
  if (i >= StructSize()) return "";
  internal::DuckStringPtr name(
      duckdb_struct_type_child_name(duckdb_get_value_type(value_.get()), i));
  return name ? std::string(name.get()) : std::string();
}

TypeId Value::type() const {
  return internal::TypeIdOf(duckdb_get_type_id(duckdb_get_value_type(value_.get())));
}

std::string Value::TypeAlias() const {
  internal::DuckStringPtr alias(duckdb_logical_type_get_alias(duckdb_get_value_type(value_.get())));
  return alias ? std::string(alias.get()) : std::string();
}

bool Value::AsBool() const { return duckdb_get_bool(value_.get()); }
int64_t Value::AsInt64() const { return duckdb_get_int64(value_.get()); }
uint64_t Value::AsUInt64() const { return duckdb_get_uint64(value_.get()); }
double Value::AsDouble() const { return duckdb_get_double(value_.get()); }

}  // namespace databox::duck
