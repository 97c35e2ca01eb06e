// dlt's column data types and how they map to Iceberg (see docs/normalization.md).
#pragma once

#include <optional>
#include <string_view>

namespace databox::normalize {

//! A dlt data type (`data_type` in a dlt schema).
enum class DataType {
  kText,
  kBigint,
  kDouble,
  kBool,
  kTimestamp,  //!< UTC-aware instant, stored as microseconds since the epoch
  kDate,       //!< days since 1970-01-01
  kTime,       //!< microseconds since midnight
  kDecimal,    //!< kept as its decimal text
  kWei,        //!< integers wider than 64 bits, kept as decimal text
  kBinary,     //!< raw bytes
  kJson,       //!< a nested value kept whole, serialized as compact JSON text
};

//! dlt's spelling: "text", "bigint", "double", "bool", "timestamp", "date", "time", "decimal",
//! "wei", "binary", "json".
std::string_view DataTypeName(DataType type);

//! Inverse of DataTypeName; also accepts dlt's legacy "complex" for json.
std::optional<DataType> ParseDataType(std::string_view name);

//! Iceberg primitive type for the raw table column: text->string, bigint->long, double->double,
//! bool->boolean, timestamp->timestamptz, date->date, time->time, decimal->decimal(38,9),
//! wei->decimal(38,0), binary->binary, json->string.
std::string_view IcebergTypeName(DataType type);

//! The type whose IcebergTypeName is `iceberg` (text for "string"); Iceberg's narrower "int" and
//! "float" are bigint and double. nullopt for a type the normalizer does not make.
std::optional<DataType> DataTypeOfIceberg(std::string_view iceberg);

}  // namespace databox::normalize
