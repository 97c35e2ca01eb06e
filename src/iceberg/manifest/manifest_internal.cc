#include "iceberg/manifest/manifest_internal.h"

#include <cmath>

namespace databox::iceberg::manifest_internal {
namespace {

//! Bytes of the fixed type holding a decimal of `precision` digits (spec, Avro appendix).
int32_t DecimalFixedSize(int32_t precision) {
  return static_cast<int32_t>(std::ceil((precision * std::log2(10.0) + 1) / 8));
}

Json WithLogical(std::string_view base, std::string_view logical) {
  return Json{{"type", base}, {"logicalType", logical}};
}

}  // namespace

Json AvroField(std::string_view name, int32_t field_id, Json type, bool optional) {
  Json field{{"name", name}};
  if (optional) {
    field["type"] = Json::array({"null", std::move(type)});
    field["default"] = nullptr;
  } else {
    field["type"] = std::move(type);
  }
  field["field-id"] = field_id;
  return field;
}

Json AvroList(int32_t element_id, Json item) {
  return Json{{"type", "array"}, {"items", std::move(item)}, {"element-id", element_id}};
}

Json AvroIntKeyMap(int32_t key_id, int32_t value_id, Json value_type) {
  const std::string name = "k" + std::to_string(key_id) + "_v" + std::to_string(value_id);
  Json record{
      {"type", "record"},
      {"name", name},
      {"fields", Json::array({AvroField("key", key_id, "int", false),
                              AvroField("value", value_id, std::move(value_type), false)})}};
  return Json{{"type", "array"}, {"logicalType", "map"}, {"items", std::move(record)}};
}

Result<Json> AvroPrimitive(const Type& type) {
  switch (type.id()) {
    case TypeId::kBoolean:
      return Json("boolean");
    case TypeId::kInt:
      return Json("int");
    case TypeId::kLong:
      return Json("long");
    case TypeId::kFloat:
      return Json("float");
    case TypeId::kDouble:
      return Json("double");
    case TypeId::kDate:
      return WithLogical("int", "date");
    case TypeId::kTime:
      return WithLogical("long", "time-micros");
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz: {
      Json json = WithLogical("long", "timestamp-micros");
      json["adjust-to-utc"] = type.id() == TypeId::kTimestampTz;
      return json;
    }
    case TypeId::kString:
      return Json("string");
    case TypeId::kBinary:
      return Json("bytes");
    case TypeId::kUuid:
      return Json{{"type", "fixed"}, {"name", "uuid_fixed"}, {"size", 16}, {"logicalType", "uuid"}};
    case TypeId::kFixed:
      return Json{{"type", "fixed"},
                  {"name", "fixed_" + std::to_string(type.length())},
                  {"size", type.length()}};
    case TypeId::kDecimal:
      return Json{{"type", "fixed"},
                  {"name", "decimal_" + std::to_string(type.precision()) + "_" +
                               std::to_string(type.scale())},
                  {"size", DecimalFixedSize(type.precision())},
                  {"logicalType", "decimal"},
                  {"precision", type.precision()},
                  {"scale", type.scale()}};
    default:
      return MakeError(ErrorKind::kInternal,
                       "manifest: partition type " + type.ToString() + " is not a primitive");
  }
}

avro::Value LiteralToAvro(const Literal& literal) {
  const Type& type = literal.type();
  return std::visit(
      [&type](const auto& v) -> avro::Value {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, bool>) {
          return avro::Value::Boolean(v);
        } else if constexpr (std::is_same_v<T, int32_t>) {
          return avro::Value::Int(v);
        } else if constexpr (std::is_same_v<T, int64_t>) {
          return avro::Value::Long(v);
        } else if constexpr (std::is_same_v<T, float>) {
          return avro::Value::Float(v);
        } else if constexpr (std::is_same_v<T, double>) {
          return avro::Value::Double(v);
        } else if constexpr (std::is_same_v<T, DecimalValue>) {
          // Big-endian two's complement, sign-extended to the fixed size.
          const int32_t size = DecimalFixedSize(type.precision());
          std::string bytes(static_cast<size_t>(size), '\0');
          UInt128 bits = static_cast<UInt128>(v.unscaled);
          for (int32_t i = size - 1; i >= 0; --i) {
            bytes[static_cast<size_t>(i)] = static_cast<char>(bits & 0xFF);
            bits >>= 8;
          }
          return avro::Value::Fixed(std::move(bytes));
        } else if constexpr (std::is_same_v<T, std::string>) {
          return avro::Value::String(v);
        } else if constexpr (std::is_same_v<T, UuidBytes>) {
          return avro::Value::Fixed(std::string(v.begin(), v.end()));
        } else {
          std::string bytes(v.begin(), v.end());
          return type.id() == TypeId::kFixed ? avro::Value::Fixed(std::move(bytes))
                                             : avro::Value::Bytes(std::move(bytes));
        }
      },
      literal.value());
}

Result<Literal> LiteralFromAvro(const avro::Value& value, const Type& type) {
  const avro::Value& v = value.Unwrapped();
  auto mismatch = [&]() {
    return MakeError(ErrorKind::kData, "manifest: partition value " +
                                           v.DebugString().substr(0, 60) +
                                           " does not fit partition type " + type.ToString());
  };
  switch (v.type()) {
    case avro::AvroType::kBoolean:
      return Literal::Make(type, v.boolean());
    case avro::AvroType::kInt:
      return Literal::Make(type, v.int_value());
    case avro::AvroType::kLong:
      return Literal::Make(type, v.long_value());
    case avro::AvroType::kFloat:
      return Literal::Make(type, v.float_value());
    case avro::AvroType::kDouble:
      return Literal::Make(type, v.double_value());
    case avro::AvroType::kString:
      return Literal::Make(type, v.bytes());
    case avro::AvroType::kBytes:
    case avro::AvroType::kFixed: {
      const std::string& raw = v.bytes();
      if (type.id() == TypeId::kUuid) {
        if (raw.size() != 16) return mismatch();
        UuidBytes uuid;
        std::copy(raw.begin(), raw.end(), uuid.begin());
        return Literal::Make(type, uuid);
      }
      if (type.id() == TypeId::kDecimal) {
        if (raw.empty() || raw.size() > 16) return mismatch();
        UInt128 bits = (static_cast<uint8_t>(raw[0]) & 0x80) ? ~UInt128{0} : 0;
        for (unsigned char c : raw) bits = (bits << 8) | c;
        return Literal::Make(type, DecimalValue{static_cast<Int128>(bits)});
      }
      return Literal::Make(type, Bytes(raw.begin(), raw.end()));
    }
    default:
      return mismatch();
  }
}

const avro::Value* RecordView::Get(std::string_view name) const {
  const avro::Value* field = record_.Field(name);
  if (field == nullptr) return nullptr;
  const avro::Value& unwrapped = field->Unwrapped();
  return unwrapped.is_null() ? nullptr : &unwrapped;
}

std::unexpected<Error> RecordView::Invalid(std::string_view name, std::string_view problem) const {
  return MakeError(ErrorKind::kData, std::string(where_) + ": field \"" + std::string(name) +
                                         "\" " + std::string(problem));
}

Result<const avro::Value*> RecordView::Require(std::string_view name, avro::AvroType type) const {
  const avro::Value* v = Get(name);
  if (v == nullptr) return Invalid(name, "is missing or null but required");
  if (v->type() != type) {
    return Invalid(name, "has Avro type " + std::string(avro::AvroTypeName(v->type())) +
                             ", expected " + std::string(avro::AvroTypeName(type)));
  }
  return v;
}

Result<int64_t> RecordView::Long(std::string_view name) const {
  DATABOX_ASSIGN_OR_RETURN(const avro::Value* v, Require(name, avro::AvroType::kLong));
  return v->long_value();
}

Result<int32_t> RecordView::Int(std::string_view name) const {
  DATABOX_ASSIGN_OR_RETURN(const avro::Value* v, Require(name, avro::AvroType::kInt));
  return v->int_value();
}

Result<std::string> RecordView::String(std::string_view name) const {
  DATABOX_ASSIGN_OR_RETURN(const avro::Value* v, Require(name, avro::AvroType::kString));
  return v->bytes();
}

Result<std::optional<int64_t>> RecordView::OptionalLong(std::string_view name) const {
  if (Get(name) == nullptr) return std::optional<int64_t>();
  DATABOX_ASSIGN_OR_RETURN(int64_t v, Long(name));
  return std::optional<int64_t>(v);
}

Result<std::optional<int32_t>> RecordView::OptionalInt(std::string_view name) const {
  if (Get(name) == nullptr) return std::optional<int32_t>();
  DATABOX_ASSIGN_OR_RETURN(int32_t v, Int(name));
  return std::optional<int32_t>(v);
}

Result<std::optional<bool>> RecordView::OptionalBoolean(std::string_view name) const {
  if (Get(name) == nullptr) return std::optional<bool>();
  DATABOX_ASSIGN_OR_RETURN(const avro::Value* v, Require(name, avro::AvroType::kBoolean));
  return std::optional<bool>(v->boolean());
}

Result<std::optional<std::string>> RecordView::OptionalBytes(std::string_view name) const {
  const avro::Value* v = Get(name);
  if (v == nullptr) return std::optional<std::string>();
  if (v->type() != avro::AvroType::kBytes && v->type() != avro::AvroType::kFixed) {
    return Invalid(name, "is not bytes");
  }
  return std::optional<std::string>(v->bytes());
}

}  // namespace databox::iceberg::manifest_internal
