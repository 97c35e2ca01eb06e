#include "normalize/column_batch.h"

#include <type_traits>

namespace databox::normalize {

StringValues::StringValues(std::initializer_list<value_type> values) {
  for (const value_type& value : values) {
    if (value) {
      push_back(*value);
    } else {
      push_null();
    }
  }
}

void StringValues::reserve(std::size_t rows, std::size_t bytes) {
  ends_.reserve(rows);
  valid_.reserve(rows);
  text_.reserve(bytes);
}

void StringValues::push_back(std::string_view value) {
  text_.append(value);
  ends_.push_back(text_.size());
  valid_.push_back(1);
}

void StringValues::push_null() {
  ends_.push_back(text_.size());
  valid_.push_back(0);
}

void StringValues::append_nulls(std::size_t count) {
  ends_.resize(ends_.size() + count, text_.size());
  valid_.resize(valid_.size() + count, 0);
}

void StringValues::replace_back(std::string_view value) {
  const uint64_t begin = ends_.size() < 2 ? 0 : ends_[ends_.size() - 2];
  text_.resize(begin);
  text_.append(value);
  ends_.back() = text_.size();
  valid_.back() = 1;
}

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

void AppendNull(ColumnValues& values) {
  std::visit(
      [](auto& v) {
        if constexpr (std::is_same_v<std::decay_t<decltype(v)>, StringValues>) {
          v.push_null();
        } else {
          v.emplace_back(std::nullopt);
        }
      },
      values);
}

void ReserveLike(ColumnValues& values, std::size_t rows, const ColumnValues& like) {
  std::visit(
      [&](auto& v) {
        using Values = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<Values, StringValues>) {
          const auto* previous = std::get_if<StringValues>(&like);
          v.reserve(rows, previous == nullptr ? 0 : previous->bytes());
        } else {
          v.reserve(rows);
        }
      },
      values);
}

}  // namespace databox::normalize
