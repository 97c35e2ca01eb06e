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

Result<PreparedStatement> Connection::Prepare(const std::string& sql) {
  return PreparedStatement::Make(*this, sql);
}

}  // namespace databox::duck
