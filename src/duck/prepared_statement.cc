#include "duck/prepared_statement.h"

#include <chrono>
#include <string>
#include <thread>

#include "duck/connection.h"
#include "duck/error_internal.h"

namespace databox::duck {
Result<PreparedStatement> PreparedStatement::Make(Connection& conn, const std::string& sql) {
  duckdb_prepared_statement stmt = nullptr;
  const duckdb_state state = duckdb_prepare(conn.handle(), sql.c_str(), &stmt);
  PreparedStatement prepared(stmt);  // owns stmt even on failure, as the C API requires
  if (state == DuckDBError) {
    const char* error = stmt != nullptr ? duckdb_prepare_error(stmt) : nullptr;
    return MakeError(ErrorKind::kData, std::string("preparing DuckDB statement failed: ") +
                                           (error != nullptr ? error : "unknown DuckDB error"));
  }
  return prepared;
}

uint64_t PreparedStatement::parameter_count() const { return duckdb_nparams(stmt_.get()); }

Status PreparedStatement::Check(duckdb_state state, uint64_t index, const char* what) const {
  if (state == DuckDBSuccess) return Ok();
  return MakeError(ErrorKind::kData, "binding " + std::string(what) + " to parameter " +
                                         std::to_string(index) + " of a statement with " +
                                         std::to_string(parameter_count()) +
                                         " parameters failed: check the index (1-based) and type");
}

Status PreparedStatement::BindNull(uint64_t index) {
  return Check(duckdb_bind_null(stmt_.get(), index), index, "NULL");
}

Status PreparedStatement::BindBool(uint64_t index, bool value) {
  return Check(duckdb_bind_boolean(stmt_.get(), index, value), index, "a BOOLEAN");
}

Status PreparedStatement::BindInt64(uint64_t index, int64_t value) {
  return Check(duckdb_bind_int64(stmt_.get(), index, value), index, "a BIGINT");
}

Status PreparedStatement::BindDouble(uint64_t index, double value) {
  return Check(duckdb_bind_double(stmt_.get(), index, value), index, "a DOUBLE");
}

Status PreparedStatement::BindString(uint64_t index, std::string_view value) {
  return Check(duckdb_bind_varchar_length(stmt_.get(), index, value.data(), value.size()), index,
               "a VARCHAR");
}

Status PreparedStatement::BindBlob(uint64_t index, std::string_view bytes) {
  return Check(duckdb_bind_blob(stmt_.get(), index, bytes.data(), bytes.size()), index, "a BLOB");
}

Status PreparedStatement::Bind(uint64_t index, const Parameter& value) {
  struct Binder {
    PreparedStatement* self;
    uint64_t index;
    Status operator()(std::nullptr_t) const { return self->BindNull(index); }
    Status operator()(bool v) const { return self->BindBool(index, v); }
    Status operator()(int64_t v) const { return self->BindInt64(index, v); }
    Status operator()(double v) const { return self->BindDouble(index, v); }
    Status operator()(const std::string& v) const { return self->BindString(index, v); }
    Status operator()(const Blob& v) const { return self->BindBlob(index, v.bytes); }
  };
  return std::visit(Binder{this, index}, value);
}

Status PreparedStatement::BindAll(std::span<const Parameter> values) {
  if (values.size() != parameter_count()) {
    return MakeError(ErrorKind::kData, "statement takes " + std::to_string(parameter_count()) +
                                           " parameters but " + std::to_string(values.size()) +
                                           " values were given");
  }
  for (uint64_t i = 0; i < values.size(); ++i) DATABOX_RETURN_IF_ERROR(Bind(i + 1, values[i]));
  return Ok();
}

Status PreparedStatement::ClearBindings() {
  if (duckdb_clear_bindings(stmt_.get()) == DuckDBError) {
    return MakeError(ErrorKind::kInternal, "clearing DuckDB statement bindings failed");
  }
  return Ok();
}

Result<QueryResult> PreparedStatement::Query() {
  internal::ResultGuard guard;
  if (duckdb_execute_prepared(stmt_.get(), &guard.result) == DuckDBError) {
    return std::unexpected(internal::ResultError(&guard.result, "DuckDB prepared query failed"));
  }
  return QueryResult::FromDuckResult(&guard.result);
}

Result<QueryResult> PreparedStatement::QueryWithoutSpinning() {
  struct PendingGuard {
    duckdb_pending_result pending = nullptr;
    ~PendingGuard() { duckdb_destroy_pending(&pending); }
  } guard;
  if (duckdb_pending_prepared(stmt_.get(), &guard.pending) == DuckDBError) {
    const char* error = guard.pending != nullptr ? duckdb_pending_error(guard.pending) : nullptr;
    return MakeError(ErrorKind::kData, std::string("DuckDB prepared query failed: ") +
                                           (error != nullptr ? error : "unknown DuckDB error"));
  }
  // Long enough to leave the core to other threads, short next to a task's milliseconds.
  constexpr auto kIdleStep = std::chrono::microseconds(100);
  for (;;) {
    const duckdb_pending_state state = duckdb_pending_execute_task(guard.pending);
    if (state == DUCKDB_PENDING_RESULT_READY || state == DUCKDB_PENDING_ERROR) break;
    if (state == DUCKDB_PENDING_NO_TASKS_AVAILABLE) std::this_thread::sleep_for(kIdleStep);
  }
  internal::ResultGuard result;
  if (duckdb_execute_pending(guard.pending, &result.result) == DuckDBError) {
    return std::unexpected(internal::ResultError(&result.result, "DuckDB prepared query failed"));
  }
  return QueryResult::FromDuckResult(&result.result);
}

Status PreparedStatement::Execute() {
  internal::ResultGuard guard;
  if (duckdb_execute_prepared(stmt_.get(), &guard.result) == DuckDBError) {
    return std::unexpected(
        internal::ResultError(&guard.result, "DuckDB prepared statement failed"));
  }
  return Ok();
}

}  // namespace databox::duck
