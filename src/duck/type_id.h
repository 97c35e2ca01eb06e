// Column types of a query result.
#pragma once

#include <string_view>

namespace databox::duck {

//! A DuckDB logical type id (the type's family; DECIMAL width/scale etc. are not included).
enum class TypeId {
  kInvalid,
  kBoolean,
  kTinyInt,
  kSmallInt,
  kInteger,
  kBigInt,
  kUTinyInt,
  kUSmallInt,
  kUInteger,
  kUBigInt,
  kHugeInt,
  kUHugeInt,
  kFloat,
  kDouble,
  kDecimal,
  kVarchar,
  kBlob,
  kDate,
  kTime,
  kTimeTz,
  kTimestamp,
  kTimestampTz,
  kTimestampSec,
  kTimestampMs,
  kTimestampNs,
  kInterval,
  kUuid,
  kEnum,
  kList,
  kArray,
  kStruct,
  kMap,
  kUnion,
  kOther,  //!< a type this wrapper does not name (BIT, BIGNUM, ...); read it with GetAsString
};

//! The SQL name of the type family ("BIGINT", "STRUCT", ...).
std::string_view TypeIdName(TypeId id);

}  // namespace databox::duck
