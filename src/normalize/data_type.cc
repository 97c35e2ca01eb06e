#include "normalize/data_type.h"

#include <array>
#include <utility>

namespace databox::normalize {
namespace {

struct TypeNames {
  DataType type;
  std::string_view dlt;
  std::string_view iceberg;
};

constexpr std::array<TypeNames, 11> kTypes = {{
    {DataType::kText, "text", "string"},
    {DataType::kBigint, "bigint", "long"},
    {DataType::kDouble, "double", "double"},
    {DataType::kBool, "bool", "boolean"},
    {DataType::kTimestamp, "timestamp", "timestamptz"},
    {DataType::kDate, "date", "date"},
    {DataType::kTime, "time", "time"},
    {DataType::kDecimal, "decimal", "decimal(38, 9)"},
    {DataType::kWei, "wei", "decimal(38, 0)"},
    {DataType::kBinary, "binary", "binary"},
    {DataType::kJson, "json", "string"},
}};

const TypeNames& Find(DataType type) {
  for (const TypeNames& names : kTypes) {
    if (names.type == type) return names;
  }
  return kTypes[0];  // unreachable: every enumerator is listed
}

}  // namespace

std::string_view DataTypeName(DataType type) { return Find(type).dlt; }

std::string_view IcebergTypeName(DataType type) { return Find(type).iceberg; }

std::optional<DataType> DataTypeOfIceberg(std::string_view iceberg) {
  if (iceberg == "int") return DataType::kBigint;
  if (iceberg == "float") return DataType::kDouble;
  for (const TypeNames& names : kTypes) {
    if (names.iceberg == iceberg) return names.type;
  }
  return std::nullopt;
}

std::optional<DataType> ParseDataType(std::string_view name) {
  if (name == "complex") return DataType::kJson;
  for (const TypeNames& names : kTypes) {
    if (names.dlt == name) return names.type;
  }
  return std::nullopt;
}

}  // namespace databox::normalize
