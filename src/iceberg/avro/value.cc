#include "iceberg/avro/value.h"

#include <nlohmann/json.hpp>

namespace databox::avro {

Value Value::Union(int32_t branch, Value value) {
  Value out(AvroType::kUnion, Array{std::move(value)});
  out.branch_ = branch;
  return out;
}

const Value* Value::Field(std::string_view name) const {
  if (type_ != AvroType::kRecord) return nullptr;
  for (const auto& [field_name, value] : entries()) {
    if (field_name == name) return &value;
  }
  return nullptr;
}

std::string Value::DebugString() const {
  switch (type_) {
    case AvroType::kNull:
      return "null";
    case AvroType::kBoolean:
      return boolean() ? "true" : "false";
    case AvroType::kInt:
      return std::to_string(int_value());
    case AvroType::kEnum:
      return "enum(" + std::to_string(int_value()) + ")";
    case AvroType::kLong:
      return std::to_string(long_value()) + "L";
    case AvroType::kFloat:
      return std::to_string(float_value()) + "f";
    case AvroType::kDouble:
      return std::to_string(double_value());
    case AvroType::kString:
      return nlohmann::json(bytes()).dump();
    case AvroType::kBytes:
    case AvroType::kFixed: {
      static constexpr char kHex[] = "0123456789abcdef";
      std::string out = type_ == AvroType::kBytes ? "b'" : "f'";
      for (unsigned char c : bytes()) {
        out += kHex[c >> 4];
        out += kHex[c & 0xF];
      }
      return out + "'";
    }
    case AvroType::kArray: {
      std::string out = "[";
      for (size_t i = 0; i < items().size(); ++i) out += (i ? ", " : "") + items()[i].DebugString();
      return out + "]";
    }
    case AvroType::kRecord:
    case AvroType::kMap: {
      std::string out = "{";
      bool first = true;
      for (const auto& [key, value] : entries()) {
        out += (first ? "" : ", ") + nlohmann::json(key).dump() + ": " + value.DebugString();
        first = false;
      }
      return out + "}";
    }
    case AvroType::kUnion:
      return "<" + std::to_string(branch_) + ">" + branch_value().DebugString();
  }
  return "?";
}

}  // namespace databox::avro
