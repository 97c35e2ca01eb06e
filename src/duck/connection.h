// A connection to an open Database: runs SQL.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "common/error.h"
#include "duck/database.h"
#include "duck/query_result.h"
#include "duckdb.h"

namespace databox::duck {

class PreparedStatement;

//! One DuckDB connection (one transaction context). Move-only. Not for concurrent use from
//! several threads; open one Connection per thread. Must not outlive its Database.
class Connection {
 public:
  static Result<Connection> Open(const Database& db);

  Connection(Connection&&) noexcept = default;
  Connection& operator=(Connection&&) noexcept = default;
  ~Connection() = default;

  //! Runs one or more statements, discarding any rows. Errors carry DuckDB's message.
  Status Execute(const std::string& sql);
  //! Runs `sql` and reads all its rows (of the last statement).
  Result<QueryResult> Query(const std::string& sql);
  //! Runs every statement of `sql` in order and returns each one's result (a statement without
  //! rows, such as CREATE, gives what DuckDB answers for it). Stops at the first failing
  //! statement: the error names its position ("statement 2 of 3").
  Result<std::vector<QueryResult>> QueryEach(const std::string& sql);
  //! QueryEach as one unit: the statements run in one transaction, each one's result handed to
  //! `on_result` as it comes, and when one fails everything before it is rolled back. SQL that
  //! manages transactions itself (BEGIN, COMMIT, ROLLBACK) runs as written.
  Status QueryEachAtomically(const std::string& sql,
                             const std::function<void(QueryResult)>& on_result);
  //! Prepares one statement with `?` or `$1` parameters.
  Result<PreparedStatement> Prepare(const std::string& sql);

  //! The extension directory of the database this connection belongs to.
  const std::string& extension_directory() const { return extension_directory_; }
  //! The raw handle, for the duck module's own wrappers.
  duckdb_connection handle() const { return conn_.get(); }

 private:
  struct Disconnector {
    void operator()(duckdb_connection conn) const { duckdb_disconnect(&conn); }
  };
  Connection(duckdb_connection conn, std::string extension_directory)
      : conn_(conn), extension_directory_(std::move(extension_directory)) {}

  std::unique_ptr<_duckdb_connection, Disconnector> conn_;  //!< never null in a live object
  std::string extension_directory_;                         //!< copied from DatabaseOptions
};

}  // namespace databox::duck
