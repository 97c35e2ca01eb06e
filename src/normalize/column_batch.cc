#include "normalize/column_batch.h"

namespace databox::normalize {

ColumnValues ValuesFor(DataType type, std::size_t nulls) {
  switch (type) {
    case DataType::kBool:
      return BoolValues(nulls);
    case DataType::kBigint:
    case DataType::kTimestamp:
    case DataType::kDate:
    case DataType::kTime:
      return Int64Values(nulls);
    case DataType::kDouble:
      return DoubleValues(nulls);
    case DataType::kText:
    case DataType::kJson:
    case DataType::kDecimal:
    case DataType::kWei:
    case DataType::kBinary:
      return StringValues(nulls);
  }
  return StringValues(nulls);
}

std::size_t ValuesSize(const ColumnValues& values) {
  return std::visit([](const auto& v) { return v.size(); }, values);
}

}  // namespace databox::normalize
