#include "duck/error_internal.h"

#include <string>

namespace databox::duck::internal {

ErrorKind KindOf(duckdb_error_type type) {
  switch (type) {
    case DUCKDB_ERROR_CATALOG:
      return ErrorKind::kNotFound;
    case DUCKDB_ERROR_IO:
    case DUCKDB_ERROR_PERMISSION:
      return ErrorKind::kIo;
    case DUCKDB_ERROR_NETWORK:
    case DUCKDB_ERROR_HTTP:
      return ErrorKind::kNetwork;
    case DUCKDB_ERROR_TRANSACTION:
      return ErrorKind::kConflict;
    case DUCKDB_ERROR_SETTINGS:
    case DUCKDB_ERROR_MISSING_EXTENSION:
    case DUCKDB_ERROR_AUTOLOAD:
      return ErrorKind::kConfig;
    case DUCKDB_ERROR_OUT_OF_RANGE:
    case DUCKDB_ERROR_CONVERSION:
    case DUCKDB_ERROR_DECIMAL:
    case DUCKDB_ERROR_MISMATCH_TYPE:
    case DUCKDB_ERROR_DIVIDE_BY_ZERO:
    case DUCKDB_ERROR_CONSTRAINT:
    case DUCKDB_ERROR_INVALID_INPUT:
    case DUCKDB_ERROR_PARSER:
    case DUCKDB_ERROR_SYNTAX:
    case DUCKDB_ERROR_BINDER:
      return ErrorKind::kData;
    default:
      return ErrorKind::kInternal;
  }
}

Error DuckError(duckdb_error_type type, std::string_view action, const char* message) {
  std::string text(action);
  text += ": ";
  text += message != nullptr && *message != '\0' ? message : "unknown DuckDB error";
  return Error{KindOf(type), std::move(text)};
}

Error ResultError(duckdb_result* result, std::string_view action) {
  return DuckError(duckdb_result_error_type(result), action, duckdb_result_error(result));
}

}  // namespace databox::duck::internal
