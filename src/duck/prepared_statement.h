// A prepared statement with positional parameters.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <variant>

#include "common/error.h"
#include "duck/query_result.h"
#include "duckdb.h"

namespace databox::duck {

class Connection;

//! Bytes to bind as BLOB (a std::string would bind as VARCHAR).
struct Blob {
  std::string bytes;
};

//! One parameter value: NULL, BOOLEAN, BIGINT, DOUBLE, VARCHAR or BLOB.
using Parameter = std::variant<std::nullptr_t, bool, int64_t, double, std::string, Blob>;

//! A statement prepared on a Connection, executed any number of times with fresh bindings.
//! Parameter indices are 1-based, as in DuckDB ($1 is index 1). Move-only; must not outlive
//! its Connection.
class PreparedStatement {
 public:
  //! Prepares `sql` (one statement). Errors carry DuckDB's message.
  static Result<PreparedStatement> Make(Connection& conn, const std::string& sql);

  PreparedStatement(PreparedStatement&&) noexcept = default;
  PreparedStatement& operator=(PreparedStatement&&) noexcept = default;
  ~PreparedStatement() = default;

  //! Number of parameters the statement takes.
  uint64_t parameter_count() const;

  Status BindNull(uint64_t index);
  Status BindBool(uint64_t index, bool value);
  Status BindInt64(uint64_t index, int64_t value);
  Status BindDouble(uint64_t index, double value);
  Status BindString(uint64_t index, std::string_view value);
  Status BindBlob(uint64_t index, std::string_view bytes);
  //! Binds one parameter of any supported kind.
  Status Bind(uint64_t index, const Parameter& value);
  //! Binds `values` to parameters 1..n; n must equal parameter_count().
  Status BindAll(std::span<const Parameter> values);
  //! Forgets all bindings.
  Status ClearBindings();

  //! Runs the statement with the current bindings and reads all rows.
  Result<QueryResult> Query();
  //! Runs the statement with the current bindings, discarding rows.
  Status Execute();
  //! As Query(), for long statements that DuckDB runs on several threads: while the other
  //! threads hold all of the statement's work, the calling thread sleeps in short steps instead
  //! of polling without pause as DuckDB's own loop does (a core's worth of waiting that other
  //! threads of this process could use).
  Result<QueryResult> QueryWithoutSpinning();

 private:
  struct Destroyer {
    void operator()(duckdb_prepared_statement stmt) const { duckdb_destroy_prepare(&stmt); }
  };
  explicit PreparedStatement(duckdb_prepared_statement stmt) : stmt_(stmt) {}
  //! kData "binding parameter <index>" with DuckDB's reason, or Ok.
  Status Check(duckdb_state state, uint64_t index, const char* what) const;

  std::unique_ptr<_duckdb_prepared_statement, Destroyer> stmt_;  //!< never null when live
};

}  // namespace databox::duck
