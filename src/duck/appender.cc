#include "duck/appender.h"

#include <string>

#include "duck/connection.h"
#include "duck/data_chunk.h"

namespace databox::duck {

Result<Appender> Appender::Make(Connection& conn, const std::string& schema,
                                const std::string& table) {
  duckdb_appender raw = nullptr;
  const duckdb_state state = duckdb_appender_create(
      conn.handle(), schema.empty() ? nullptr : schema.c_str(), table.c_str(), &raw);
  const std::string name = schema.empty() ? table : schema + "." + table;
  Appender appender(raw, name);  // owns raw even on failure, as the C API requires
  if (state == DuckDBError) {
    const char* error = raw != nullptr ? duckdb_appender_error(raw) : nullptr;
    return MakeError(ErrorKind::kNotFound,
                     "creating DuckDB appender for table " + name +
                         " failed: " + (error != nullptr ? error : "unknown DuckDB error"));
  }
  return appender;
}

uint64_t Appender::column_count() const { return duckdb_appender_column_count(appender_.get()); }

Status Appender::Check(duckdb_state state, std::string_view action) const {
  if (state == DuckDBSuccess) return Ok();
  const char* error = duckdb_appender_error(appender_.get());
  return MakeError(ErrorKind::kData,
                   "DuckDB appender for table " + table_ + ": " + std::string(action) +
                       " failed: " + (error != nullptr ? error : "unknown DuckDB error"));
}

Status Appender::AppendNull() { return Check(duckdb_append_null(appender_.get()), "append NULL"); }

Status Appender::AppendBool(bool value) {
  return Check(duckdb_append_bool(appender_.get(), value), "append BOOLEAN");
}

Status Appender::AppendInt32(int32_t value) {
  return Check(duckdb_append_int32(appender_.get(), value), "append INTEGER");
}

Status Appender::AppendInt64(int64_t value) {
  return Check(duckdb_append_int64(appender_.get(), value), "append BIGINT");
}

Status Appender::AppendUInt64(uint64_t value) {
  return Check(duckdb_append_uint64(appender_.get(), value), "append UBIGINT");
}

Status Appender::AppendDouble(double value) {
  return Check(duckdb_append_double(appender_.get(), value), "append DOUBLE");
}

Status Appender::AppendString(std::string_view value) {
  return Check(duckdb_append_varchar_length(appender_.get(), value.data(), value.size()),
               "append VARCHAR");
}

Status Appender::AppendBlob(std::string_view bytes) {
  return Check(duckdb_append_blob(appender_.get(), bytes.data(), bytes.size()), "append BLOB");
}

Status Appender::AppendDate(int32_t days_since_epoch) {
  return Check(duckdb_append_date(appender_.get(), duckdb_date{days_since_epoch}), "append DATE");
}

Status Appender::AppendTimestampMicros(int64_t micros_since_epoch) {
  return Check(duckdb_append_timestamp(appender_.get(), duckdb_timestamp{micros_since_epoch}),
               "append TIMESTAMP");
}

Status Appender::AppendDefault() {
  return Check(duckdb_append_default(appender_.get()), "append DEFAULT");
}

Status Appender::AppendChunk(const DataChunk& chunk) {
  return Check(duckdb_append_data_chunk(appender_.get(), chunk.handle()), "append data chunk");
}

Status Appender::EndRow() { return Check(duckdb_appender_end_row(appender_.get()), "end row"); }

Status Appender::Flush() { return Check(duckdb_appender_flush(appender_.get()), "flush"); }

Status Appender::Close() { return Check(duckdb_appender_close(appender_.get()), "close"); }

}  // namespace databox::duck
