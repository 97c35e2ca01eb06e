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

bool AppendCell(ColumnValues& values, const std::optional<Cell>& cell) {
  return AppendCell(values, std::optional<Cell>(cell));
}

bool AppendCell(ColumnValues& values, std::optional<Cell>&& cell) {
  return std::visit(
      [&](auto& column) {
        using Value = typename std::decay_t<decltype(column)>::value_type::value_type;
        if (!cell) {
          column.emplace_back(std::nullopt);
          return true;
        }
        Value* value = std::get_if<Value>(&*cell);
        if (value == nullptr) return false;
        column.emplace_back(std::move(*value));
        return true;
      },
      values);
}

}  // namespace databox::normalize
