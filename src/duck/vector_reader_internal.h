// Reading single entries out of DuckDB vectors. Private to the duck module.
#pragma once

#include <cstdint>

#include "common/error.h"
#include "duck/handles_internal.h"
#include "duck/type_id.h"

namespace databox::duck::internal {

//! Our name for a C API type id.
TypeId TypeIdOf(duckdb_type type);

//! True when entry `index` of `vector` is NULL.
bool IsNullAt(duckdb_vector vector, uint64_t index);

//! A duckdb_value holding entry `index` of `vector` (of logical type `type`), nested types
//! included. Fails for types the C API cannot build values of (UNION, BIT, BIGNUM).
Result<ValuePtr> ReadValue(duckdb_vector vector, duckdb_logical_type type, uint64_t index);

}  // namespace databox::duck::internal
