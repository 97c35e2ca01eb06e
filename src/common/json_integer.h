// Integers in the JSON we print: a value beyond 2^53 (snapshot ids are random 63-bit numbers)
// loses digits in JSON tools that read numbers as doubles (jq 1.6 prints 801030709168230300 for
// ...257), so such values are written as strings and every reader of our JSON accepts both.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>

#include "common/error.h"

namespace databox {

//! The largest integer every IEEE double holds exactly: 2^53.
inline constexpr int64_t kMaxExactJsonInteger = int64_t{1} << 53;

//! True when `value` survives a reader that parses JSON numbers as doubles.
inline bool FitsJsonNumber(int64_t value) {
  return value <= kMaxExactJsonInteger && value >= -kMaxExactJsonInteger;
}

//! `value` as a JSON number when FitsJsonNumber, else as its decimal text.
template <typename Json = nlohmann::json>
Json JsonInteger(int64_t value) {
  if (FitsJsonNumber(value)) return Json(value);
  return Json(std::to_string(value));
}

//! The integer of a JSON number or of a string of decimal digits (as JsonInteger writes it);
//! a kData error for anything else.
Result<int64_t> IntegerFromJson(const nlohmann::json& value);

}  // namespace databox
