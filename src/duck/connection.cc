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

namespace {

//! Runs every statement of `statements` (`count` of them) in order on `conn`, handing each
//! result to `on_result`; stops at the first failure, naming its position.
Status RunExtracted(duckdb_connection conn, duckdb_extracted_statements statements, idx_t count,
                    const std::function<void(QueryResult)>& on_result) {
  for (idx_t i = 0; i < count; ++i) {
    const std::string where = "statement " + std::to_string(i + 1) + " of " + std::to_string(count);
    PreparedHandle prepared;
    if (duckdb_prepare_extracted_statement(conn, statements, i, &prepared.handle) ==
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
    on_result(std::move(result));
  }
  return Ok();
}

//! Splits `sql` into statements; an error when DuckDB cannot parse it.
Result<idx_t> Extract(duckdb_connection conn, const std::string& sql,
                      ExtractedStatements& statements) {
  const idx_t count = duckdb_extract_statements(conn, sql.c_str(), &statements.handle);
  if (count == 0) {
    const char* why = duckdb_extract_statements_error(statements.handle);
    return MakeError(ErrorKind::kData, std::string("DuckDB could not parse the SQL: ") +
                                           (why != nullptr ? why : "no statement in it"));
  }
  return count;
}

//! Whether one of the statements of `sql` begins, commits or rolls back a transaction. (Preparing
//! an extracted statement takes it out of the set, so this extracts its own.)
bool ManagesTransactions(duckdb_connection conn, const std::string& sql) {
  ExtractedStatements own;
  const idx_t count = duckdb_extract_statements(conn, sql.c_str(), &own.handle);
  duckdb_extracted_statements statements = own.handle;
  for (idx_t i = 0; i < count; ++i) {
    PreparedHandle prepared;
    // A statement that cannot be prepared yet (it names a table an earlier one creates) is
    // not a transaction statement: those always prepare.
    if (duckdb_prepare_extracted_statement(conn, statements, i, &prepared.handle) == DuckDBError) {
      continue;
    }
    if (duckdb_prepared_statement_type(prepared.handle) == DUCKDB_STATEMENT_TYPE_TRANSACTION) {
      return true;
    }
  }
  return false;
}

}  // namespace

Result<std::vector<QueryResult>> Connection::QueryEach(const std::string& sql) {
  ExtractedStatements statements;
  DATABOX_ASSIGN_OR_RETURN(const idx_t count, Extract(conn_.get(), sql, statements));
  std::vector<QueryResult> results;
  DATABOX_RETURN_IF_ERROR(RunExtracted(conn_.get(), statements.handle, count,
                                       [&](QueryResult r) { results.push_back(std::move(r)); }));
  return results;
}

Status Connection::QueryEachAtomically(const std::string& sql,
                                       const std::function<void(QueryResult)>& on_result) {
  ExtractedStatements statements;
  DATABOX_ASSIGN_OR_RETURN(const idx_t count, Extract(conn_.get(), sql, statements));
  if (count == 1 || ManagesTransactions(conn_.get(), sql)) {
    return RunExtracted(conn_.get(), statements.handle, count, on_result);
  }
  DATABOX_RETURN_IF_ERROR(Execute("BEGIN TRANSACTION"));
  if (auto ran = RunExtracted(conn_.get(), statements.handle, count, on_result); !ran) {
    (void)Execute("ROLLBACK");
    Error error = ran.error();
    error.message += " (every statement before it was rolled back too)";
    return std::unexpected(error);
  }
  if (auto committed = Execute("COMMIT"); !committed) {
    return std::unexpected(committed.error().WithContext("committing the statements"));
  }
  return Ok();
}

Result<PreparedStatement> Connection::Prepare(const std::string& sql) {
  return PreparedStatement::Make(*this, sql);
}

}  // namespace databox::duck
