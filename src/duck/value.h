// One DuckDB value of any type (scalar or nested), read out of a query result.
#pragma once

#include <cstdint>
#include <string>

#include "common/error.h"
#include "duck/handles_internal.h"
#include "duck/type_id.h"

namespace databox::duck {

//! An owned duckdb_value. Move-only. Nested values (STRUCT, LIST, MAP) expose their children.
class Value {
 public:
  explicit Value(internal::ValuePtr value) : value_(std::move(value)) {}

  //! True for SQL NULL.
  bool IsNull() const;
  //! DuckDB's VARCHAR cast of the value ("{'a': 1}", "2024-01-01", "1.50"); "NULL" for NULL.
  std::string ToString() const;

  //! Entries of a MAP value; 0 for other types.
  uint64_t MapSize() const;
  //! Key `i` of a MAP value.
  Result<Value> MapKey(uint64_t i) const;
  //! Value `i` of a MAP value.
  Result<Value> MapValue(uint64_t i) const;
  //! Elements of a LIST value; 0 for other types.
  uint64_t ListSize() const;
  //! Element `i` of a LIST value.
  Result<Value> ListChild(uint64_t i) const;
  //! Field `i` of a STRUCT value.
  Result<Value> StructChild(uint64_t i) const;
  //! Fields of a STRUCT value; 0 for other types.
  uint64_t StructSize() const;
  //! Name of field `i` of a STRUCT value ("" out of range).
  std::string StructFieldName(uint64_t i) const;

  //! The value's type family.
  TypeId type() const;
  //! The alias of the value's type ("JSON" for DuckDB's JSON type), "" when it has none.
  std::string TypeAlias() const;
  //! BOOLEAN, integer and floating-point values as C++ values; call only for those types
  //! (DuckDB converts, and answers its type's minimum when it cannot).
  bool AsBool() const;
  int64_t AsInt64() const;
  uint64_t AsUInt64() const;
  double AsDouble() const;

  //! The raw handle, for the duck module.
  duckdb_value handle() const { return value_.get(); }

 private:
  internal::ValuePtr value_;  //!< never null
};

}  // namespace databox::duck
