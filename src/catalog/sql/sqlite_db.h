// A thin RAII wrapper over one SQLite connection: statements with positional parameters,
// errors as Result. Not thread-safe (one connection, one user at a time).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "common/error.h"

struct sqlite3;
struct sqlite3_stmt;

namespace databox::catalog::sql {

//! A bound parameter: NULL, an integer or text.
using SqlValue = std::variant<std::monostate, int64_t, std::string_view>;

class SqliteStatement;

class SqliteDb {
 public:
  //! Opens (creating if needed) the database file with WAL journaling and a busy timeout, so
  //! several processes can write: a writer waits up to `busy_timeout_ms` for the lock.
  static Result<std::unique_ptr<SqliteDb>> Open(const std::string& path, int busy_timeout_ms);
  ~SqliteDb();
  SqliteDb(const SqliteDb&) = delete;
  SqliteDb& operator=(const SqliteDb&) = delete;

  //! Runs one or more statements without parameters or results.
  Status Exec(std::string_view sql);
  //! Prepares `sql` and binds `params` to ?1, ?2, ...
  Result<SqliteStatement> Prepare(std::string_view sql,
                                  std::initializer_list<SqlValue> params = {});
  //! Runs a statement to completion and returns how many rows it changed.
  Result<int64_t> Run(std::string_view sql, std::initializer_list<SqlValue> params = {});
  //! Whether a table has a column (PRAGMA table_info).
  Result<bool> HasColumn(std::string_view table, std::string_view column);

 private:
  SqliteDb(sqlite3* db, std::string path) : db_(db), path_(std::move(path)) {}
  friend class SqliteStatement;
  //! The error for result code `rc`, naming the database file.
  Error ErrorFor(int rc, std::string_view what) const;

  sqlite3* db_;       //!< owned
  std::string path_;  //!< for messages
};

class SqliteStatement {
 public:
  SqliteStatement(SqliteStatement&& other) noexcept;
  SqliteStatement& operator=(SqliteStatement&&) = delete;
  ~SqliteStatement();

  //! Advances: true if a row is available, false when done.
  Result<bool> Step();
  //! Column `i` of the current row as text; nullopt for NULL.
  std::optional<std::string> Text(int i) const;

 private:
  friend class SqliteDb;
  SqliteStatement(const SqliteDb* db, sqlite3_stmt* stmt) : db_(db), stmt_(stmt) {}

  const SqliteDb* db_;  //!< for error messages
  sqlite3_stmt* stmt_;  //!< owned; null once moved from
};

}  // namespace databox::catalog::sql
