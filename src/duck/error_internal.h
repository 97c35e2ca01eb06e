// Turning DuckDB failures into databox::Error. Private to the duck module.
#pragma once

#include <string_view>

#include "common/error.h"
#include "duckdb.h"

namespace databox::duck::internal {

//! The project error kind for a DuckDB error class (catalog -> not found, IO -> io, ...).
ErrorKind KindOf(duckdb_error_type type);

//! An Error "<action>: <DuckDB's message>". DuckDB's message may be null (then "unknown error").
//! The SQL text is deliberately not included: it may carry secrets (CREATE SECRET ...).
Error DuckError(duckdb_error_type type, std::string_view action, const char* message);

//! Same, for a failed duckdb_result (reads its error and error type).
Error ResultError(duckdb_result* result, std::string_view action);

}  // namespace databox::duck::internal
