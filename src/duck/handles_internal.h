// Owning smart pointers over DuckDB C API handles. Private to the duck module.
#pragma once

#include <memory>

#include "duckdb.h"

namespace databox::duck::internal {

//! Frees a duckdb_logical_type.
struct LogicalTypeDeleter {
  void operator()(duckdb_logical_type type) const { duckdb_destroy_logical_type(&type); }
};
//! Frees a duckdb_data_chunk.
struct DataChunkDeleter {
  void operator()(duckdb_data_chunk chunk) const { duckdb_destroy_data_chunk(&chunk); }
};
//! Frees a duckdb_value.
struct ValueDeleter {
  void operator()(duckdb_value value) const { duckdb_destroy_value(&value); }
};
//! Frees memory DuckDB allocated for us (strings from duckdb_get_varchar, ...).
struct DuckFreeDeleter {
  void operator()(void* ptr) const { duckdb_free(ptr); }
};

//! Destroys a duckdb_result at scope exit (also after a failed query, as the C API requires).
struct ResultGuard {
  duckdb_result result{};
  ResultGuard() = default;
  ResultGuard(const ResultGuard&) = delete;
  ResultGuard& operator=(const ResultGuard&) = delete;
  ~ResultGuard() { duckdb_destroy_result(&result); }
};

using LogicalTypePtr = std::unique_ptr<_duckdb_logical_type, LogicalTypeDeleter>;
using DataChunkPtr = std::unique_ptr<_duckdb_data_chunk, DataChunkDeleter>;
using ValuePtr = std::unique_ptr<_duckdb_value, ValueDeleter>;
using DuckStringPtr = std::unique_ptr<char, DuckFreeDeleter>;

}  // namespace databox::duck::internal
