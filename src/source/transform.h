// The per-resource transform: DuckDB SQL over `records(record JSON)`, rows back to JSON.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "common/error.h"
#include "duck/connection.h"
#include "duck/database.h"
#include "source/records.h"

namespace databox::source {

//! What the transform of one page may read through getvariable().
struct TransformVars {
  std::chrono::system_clock::time_point loaded_at;  //!< `loaded_at` (TIMESTAMP, UTC)
  std::string source_url;                           //!< `source_url`: redacted request URL
  int64_t page = 1;                                 //!< `page`: 1-based page number (BIGINT)
  std::map<std::string, std::string> vars;          //!< [source.vars] and window chunk values
};

//! Runs one resource's transform SQL, page by page, in a private in-memory DuckDB. Output rows
//! become JSON objects with the columns in SELECT order; LIST and STRUCT values become JSON
//! arrays and objects (so the normalizer makes child tables of lists), NULL becomes null,
//! timestamps become "YYYY-MM-DD HH:MM:SS[.ffffff]" text (DuckDB's JSON rendering).
class Transformer {
 public:
  //! Opens the database (one thread). kConfig error when `sql` is empty.
  static Result<std::unique_ptr<Transformer>> Make(std::string sql);

  //! Transforms one page of records; the rows go to `sink` in result order. Errors carry
  //! DuckDB's message (the caller adds source/resource/URL).
  Status Run(const std::vector<Json>& records, const TransformVars& vars, const RecordSink& sink);

 private:
  Transformer(std::string sql, duck::Database db, duck::Connection conn)
      : sql_(std::move(sql)), db_(std::move(db)), conn_(std::move(conn)) {}
  Status SetVariables(const TransformVars& vars);

  std::string sql_;                    //!< the resource's SELECT, wrapped in to_json()
  duck::Database db_;                  //!< private in-memory database
  duck::Connection conn_;              //!< the one connection to it
  std::vector<std::string> set_vars_;  //!< variables set for the previous page
};

//! "YYYY-MM-DD HH:MM:SS.ffffff" (UTC) of a time point, as DuckDB's TIMESTAMP literal reads it.
std::string FormatTimestamp(std::chrono::system_clock::time_point time);

}  // namespace databox::source
