#include "duck/connection.h"

#include "duck/error_internal.h"
#include "duck/prepared_statement.h"

namespace databox::duck {
Result<Connection> Connection::Open(const Database& db) {
  duckdb_connection conn = nullptr;
  if (duckdb_connect(db.handle(), &conn) == DuckDBError) {
    return MakeError(ErrorKind::kInternal,
                     "connecting to DuckDB database " +
                         (db.path().empty() ? std::string("(in-memory)") : db.path()) +
                         " failed: the database may be closed");
  }
  return Connection(conn, db.options().extension_directory);
}

Status Connection::Execute(const std::string& sql) {
  internal::ResultGuard guard;
  if (duckdb_query(conn_.get(), sql.c_str(), &guard.result) == DuckDBError) {
    return std::unexpected(internal::ResultError(&guard.result, "DuckDB statement failed"));
  }
  return Ok();
}

Result<QueryResult> Connection::Query(const std::string& sql) {
  internal::ResultGuard guard;
  if (duckdb_query(conn_.get(), sql.c_str(), &guard.result) == DuckDBError) {
    return std::unexpected(internal::ResultError(&guard.result, "DuckDB query failed"));
  }
  return QueryResult::FromDuckResult(&guard.result);
}

namespace {

//! Owns the statements duckdb_extract_statements split a text into.
struct ExtractedStatements {
  duckdb_extracted_statements handle = nullptr;
  ExtractedStatements() = default;
  ExtractedStatements(const ExtractedStatements&) = delete;
  ExtractedStatements& operator=(const ExtractedStatements&) = delete;
  ~ExtractedStatements() { duckdb_destroy_extracted(&handle); }
};

//! Owns one prepared statement of the C API.
struct PreparedHandle {
  duckdb_prepared_statement handle = nullptr;
  PreparedHandle() = default;
  PreparedHandle(const PreparedHandle&) = delete;
  PreparedHandle& operator=(const PreparedHandle&) = delete;
  ~PreparedHandle() { duckdb_destroy_prepare(&handle); }
};

}  // namespace

Result<std::vector<QueryResult>> Connection::QueryEach(const std::string& sql) {
  ExtractedStatements statements;
  const idx_t count = duckdb_extract_statements(conn_.get(), sql.c_str(), &statements.handle);
  if (count == 0) {
    const char* why = duckdb_extract_statements_error(statements.handle);
    return MakeError(ErrorKind::kData, std::string("DuckDB could not parse the SQL: ") +
                                           (why != nullptr ? why : "no statement in it"));
  }
  std::vector<QueryResult> results;
  for (idx_t i = 0; i < count; ++i) {
    const std::string where = "statement " + std::to_string(i + 1) + " of " + std::to_string(count);
    PreparedHandle prepared;
    if (duckdb_prepare_extracted_statement(conn_.get(), statements.handle, i, &prepared.handle) ==
        DuckDBError) {
      const char* why = duckdb_prepare_error(prepared.handle);
      return MakeError(ErrorKind::kData,
                       where + " failed: " + (why != nullptr ? why : "cannot be prepared"));
    }
    internal::ResultGuard guard;
    if (duckdb_execute_prepared(prepared.handle, &guard.result) == DuckDBError) {
      return std::unexpected(internal::ResultError(&guard.result, where + " failed"));
    }
    DATABOX_ASSIGN_OR_RETURN(QueryResult result, QueryResult::FromDuckResult(&guard.result));
    results.push_back(std::move(result));
  }
  return results;
}

Result<PreparedStatement> Connection::Prepare(const std::string& sql) {
  return PreparedStatement::Make(*this, sql);
}

}  // namespace databox::duck
