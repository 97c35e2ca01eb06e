// Query results as typed JSON, for `databox query --format json`: a value keeps its kind.
//
//   NULL                                  null
//   BOOLEAN                               true / false
//   integers (any width)                  a number when |v| <= 2^53, else its decimal text
//                                         (common/json_integer.h: JSON readers that use doubles
//                                         would change the digits)
//   FLOAT, DOUBLE                         a number; NaN and infinities as "nan", "inf", "-inf"
//   DECIMAL                               a number when it has at most 15 significant digits
//                                         (a double holds those exactly), else its text
//   JSON (VARCHAR with the JSON alias)    the parsed JSON value
//   LIST, STRUCT, MAP                     an array, an object, an object keyed by the keys' text
//   anything else (VARCHAR, dates,        the text DuckDB's cast to VARCHAR gives
//   timestamps, intervals, UUID, BLOB,
//   ENUM, ARRAY, UNION)
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>

#include "duck/query_result.h"
#include "duck/value.h"

namespace databox::duck {

//! The cell at (col, row) as JSON (see the file comment); null out of range.
nlohmann::ordered_json CellToJson(const QueryResult& result, uint64_t col, uint64_t row);

//! `value` as JSON (see the file comment).
nlohmann::ordered_json ValueToJson(const Value& value);

}  // namespace databox::duck
