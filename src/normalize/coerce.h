// Type inference and value coercion for JSON values, following dlt's rules.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "normalize/column_batch.h"
#include "normalize/data_type.h"

namespace databox::normalize {

//! Records are read as order-preserving JSON so columns appear in the order keys do.
using Json = nlohmann::ordered_json;

//! The type a non-null JSON value has by itself: string->text, boolean->bool, integer->bigint
//! (wei beyond int64), number with fraction or exponent->double, object/array->json.
DataType ValueType(const Json& value);

//! The type dlt infers for a new column from its first non-null value: ValueType, except that
//! strings passing dlt's default `iso_timestamp` detection become timestamp.
DataType InferType(const Json& value);

//! `value` (not null) converted to a column of type `to`, or nullopt if dlt would not convert it
//! (which makes a variant column). Conversions: anything->text (numbers as Python prints them,
//! bools as True/False, json as compact JSON); text->bigint/double/bool/json/timestamp/date/
//! time/decimal/wei/binary when it parses; double->bigint if integral; bigint/wei->double;
//! bigint/double->bool (non-zero), ->timestamp/date (unix seconds), ->decimal; bigint->binary.
std::optional<Cell> Coerce(DataType to, const Json& value);

//! A double as Python's str() prints it ("1.0", "0.1", "1e+16").
std::string PythonFloatText(double value);

}  // namespace databox::normalize
