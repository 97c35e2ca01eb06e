// Fast row-by-row insertion into a table.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "common/error.h"
#include "duckdb.h"

namespace databox::duck {

class Connection;
class DataChunk;

//! Appends rows to one table, column by column then EndRow(). Data reaches the table on Flush,
//! Close or destruction; call Close to see errors (the destructor cannot report them). Errors
//! carry DuckDB's message. Move-only; must not outlive its Connection.
class Appender {
 public:
  //! Appender for `schema`.`table` (schema "" = main) of the connection's default catalog.
  static Result<Appender> Make(Connection& conn, const std::string& schema,
                               const std::string& table);

  Appender(Appender&&) noexcept = default;
  Appender& operator=(Appender&&) noexcept = default;
  ~Appender() = default;

  //! Number of columns a row has.
  uint64_t column_count() const;

  Status AppendNull();
  Status AppendBool(bool value);
  Status AppendInt32(int32_t value);
  Status AppendInt64(int64_t value);
  Status AppendUInt64(uint64_t value);
  Status AppendDouble(double value);
  Status AppendString(std::string_view value);
  Status AppendBlob(std::string_view bytes);
  //! DATE as days since 1970-01-01.
  Status AppendDate(int32_t days_since_epoch);
  //! TIMESTAMP (no time zone) as microseconds since 1970-01-01 00:00:00.
  Status AppendTimestampMicros(int64_t micros_since_epoch);
  //! The column's DEFAULT.
  Status AppendDefault();
  //! Appends a whole chunk (its columns in table order; DuckDB casts columns whose type differs
  //! from the table's, e.g. VARCHAR into DECIMAL). Not to be mixed with a half-appended row.
  Status AppendChunk(const DataChunk& chunk);
  //! Finishes the current row; every column must have been appended.
  Status EndRow();
  //! Writes buffered rows into the table.
  Status Flush();
  //! Flushes and closes; further appends fail.
  Status Close();

 private:
  struct Destroyer {
    void operator()(duckdb_appender appender) const { duckdb_appender_destroy(&appender); }
  };
  Appender(duckdb_appender appender, std::string table)
      : appender_(appender), table_(std::move(table)) {}
  //! Ok, or an error naming the table, the action and DuckDB's reason.
  Status Check(duckdb_state state, std::string_view action) const;

  std::unique_ptr<_duckdb_appender, Destroyer> appender_;  //!< never null when live
  std::string table_;                                      //!< for messages
};

}  // namespace databox::duck
