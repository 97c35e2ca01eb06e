// Type inference and value coercion for JSON values, following dlt's rules.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "normalize/column_batch.h"
#include "normalize/data_type.h"

namespace databox::normalize {

//! Records are read as order-preserving JSON so columns appear in the order keys do.
using Json = nlohmann::ordered_json;

//! What a non-null JSON value is, as type inference and coercion distinguish it.
enum class ScalarKind {
  kBool,
  kInt64,      //!< an integer that fits int64
  kWide,       //!< a non-negative integer beyond int64 (up to uint64)
  kDouble,     //!< a number with fraction or exponent
  kString,     //!< `text` holds the string
  kComposite,  //!< an object or list kept whole; `text` holds its compact JSON
};

//! A non-null JSON value seen by coercion, whatever parser produced it. Views, not owners.
struct Scalar {
  ScalarKind kind = ScalarKind::kString;
  bool boolean = false;   //!< kBool
  int64_t int64 = 0;      //!< kInt64
  uint64_t wide = 0;      //!< kWide
  double real = 0;        //!< kDouble
  std::string_view text;  //!< kString and kComposite
};

//! The Scalar of a non-null nlohmann value; `composite_text` receives the compact JSON of an
//! object or list and must outlive the result.
Scalar ScalarOf(const Json& value, std::string& composite_text);

//! The type a non-null JSON value has by itself: string->text, boolean->bool, integer->bigint
//! (wei beyond int64), number with fraction or exponent->double, object/array->json.
DataType ValueType(const Scalar& value);

//! The type dlt infers for a new column from its first non-null value: ValueType, except that
//! strings passing dlt's default `iso_timestamp` detection become timestamp.
DataType InferType(const Scalar& value);

//! `value` (not null) converted to a column of type `to`, or nullopt if dlt would not convert it
//! (which makes a variant column). Conversions: anything->text (numbers as Python prints them,
//! bools as True/False, json as compact JSON); text->bigint/double/bool/json/timestamp/date/
//! time/decimal/wei/binary when it parses; double->bigint if integral; bigint/wei->double;
//! bigint/double->bool (non-zero), ->timestamp/date (unix seconds), ->decimal; bigint->binary.
std::optional<Cell> Coerce(DataType to, const Scalar& value);

//! A double as Python's str() prints it ("1.0", "0.1", "1e+16").
std::string PythonFloatText(double value);

}  // namespace databox::normalize
