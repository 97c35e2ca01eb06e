// A generic Avro datum. Records keep their field names so that readers can look fields
// up by name in files written with a different (newer or older) schema.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "iceberg/avro/schema.h"

namespace databox::avro {

class Value {
 public:
  using Array = std::vector<Value>;
  //! Record fields (in schema order) or map entries (in wire order).
  using Entries = std::vector<std::pair<std::string, Value>>;

  //! Null.
  Value() = default;

  static Value Null() { return Value(); }
  static Value Boolean(bool v) { return Value(AvroType::kBoolean, v); }
  static Value Int(int32_t v) { return Value(AvroType::kInt, v); }
  static Value Long(int64_t v) { return Value(AvroType::kLong, v); }
  static Value Float(float v) { return Value(AvroType::kFloat, v); }
  static Value Double(double v) { return Value(AvroType::kDouble, v); }
  static Value Bytes(std::string v) { return Value(AvroType::kBytes, std::move(v)); }
  static Value String(std::string v) { return Value(AvroType::kString, std::move(v)); }
  static Value Fixed(std::string v) { return Value(AvroType::kFixed, std::move(v)); }
  //! An enum symbol by its index in the schema's symbol list.
  static Value Enum(int32_t index) { return Value(AvroType::kEnum, index); }
  static Value Record(Entries fields) { return Value(AvroType::kRecord, std::move(fields)); }
  static Value ArrayOf(Array items) { return Value(AvroType::kArray, std::move(items)); }
  static Value Map(Entries entries) { return Value(AvroType::kMap, std::move(entries)); }
  //! A union value: the branch index in the schema's union and the branch's value.
  static Value Union(int32_t branch, Value value);

  AvroType type() const { return type_; }
  bool is_null() const { return type_ == AvroType::kNull; }

  // Accessors; each requires the matching type() (a mismatch is a programming error).
  bool boolean() const { return std::get<bool>(data_); }
  //! int or enum index.
  int32_t int_value() const { return std::get<int32_t>(data_); }
  int64_t long_value() const { return std::get<int64_t>(data_); }
  float float_value() const { return std::get<float>(data_); }
  double double_value() const { return std::get<double>(data_); }
  //! bytes, string or fixed.
  const std::string& bytes() const { return std::get<std::string>(data_); }
  //! array items.
  const Array& items() const { return std::get<Array>(data_); }
  //! record fields or map entries.
  const Entries& entries() const { return std::get<Entries>(data_); }
  int32_t branch() const { return branch_; }
  //! The value inside a union.
  const Value& branch_value() const { return std::get<Array>(data_).front(); }

  //! A record field by name, or nullptr.
  const Value* Field(std::string_view name) const;
  //! The value with unions unwrapped (itself if not a union).
  const Value& Unwrapped() const {
    return type_ == AvroType::kUnion ? branch_value().Unwrapped() : *this;
  }

  //! Structural equality (floats compared bitwise-by-value with ==).
  friend bool operator==(const Value& a, const Value& b) = default;

  //! A short JSON-like rendering for test failure messages.
  std::string DebugString() const;

 private:
  using Storage = std::variant<std::monostate, bool, int32_t, int64_t, float, double, std::string,
                               Array, Entries>;

  template <typename T>
  Value(AvroType type, T data) : type_(type), data_(std::move(data)) {}

  AvroType type_ = AvroType::kNull;
  int32_t branch_ = 0;  //!< union branch index
  Storage data_;        //!< a union holds its value as a one-element Array
};

}  // namespace databox::avro
