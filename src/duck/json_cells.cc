#include "duck/json_cells.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <string>

#include "common/json_integer.h"

namespace databox::duck {
namespace {

using Json = nlohmann::ordered_json;

//! A double a decimal text stands for exactly enough to print it back.
constexpr int kExactDecimalDigits = 15;
constexpr const char* kJsonAlias = "JSON";

Json FloatToJson(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  return value;
}

int SignificantDigits(const std::string& text) {
  int digits = 0;
  bool leading = true;
  for (char c : text) {
    if (!std::isdigit(static_cast<unsigned char>(c))) continue;
    if (leading && c == '0') continue;
    leading = false;
    ++digits;
  }
  return digits;
}

Json DecimalToJson(const std::string& text) {
  if (SignificantDigits(text) > kExactDecimalDigits) return text;
  return std::strtod(text.c_str(), nullptr);
}

//! An integer printed by DuckDB (HUGEINT, UBIGINT beyond int64): a number when it fits.
Json IntegerTextToJson(const std::string& text) {
  auto parsed = IntegerFromJson(nlohmann::json(text));
  return parsed ? JsonInteger<Json>(*parsed) : Json(text);
}

Json JsonTextToJson(const std::string& text) {
  Json parsed = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  return parsed.is_discarded() ? Json(text) : parsed;
}

Json NestedToJson(const Value& value);

Json ScalarToJson(const Value& value, TypeId type) {
  switch (type) {
    case TypeId::kBoolean:
      return value.AsBool();
    case TypeId::kTinyInt:
    case TypeId::kSmallInt:
    case TypeId::kInteger:
    case TypeId::kBigInt:
    case TypeId::kUTinyInt:
    case TypeId::kUSmallInt:
    case TypeId::kUInteger:
      return JsonInteger<Json>(value.AsInt64());
    case TypeId::kUBigInt:
    case TypeId::kHugeInt:
    case TypeId::kUHugeInt:
      return IntegerTextToJson(value.ToString());
    case TypeId::kFloat:
    case TypeId::kDouble:
      return FloatToJson(value.AsDouble());
    case TypeId::kDecimal:
      return DecimalToJson(value.ToString());
    case TypeId::kVarchar:
      if (value.TypeAlias() == kJsonAlias) return JsonTextToJson(value.ToString());
      return value.ToString();
    default:
      return value.ToString();
  }
}

Json NestedToJson(const Value& value) {
  Json out;
  switch (value.type()) {
    case TypeId::kList:
      out = Json::array();
      for (uint64_t i = 0; i < value.ListSize(); ++i) {
        auto child = value.ListChild(i);
        out.push_back(child ? ValueToJson(*child) : Json());
      }
      return out;
    case TypeId::kStruct:
      out = Json::object();
      for (uint64_t i = 0; i < value.StructSize(); ++i) {
        auto child = value.StructChild(i);
        out[value.StructFieldName(i)] = child ? ValueToJson(*child) : Json();
      }
      return out;
    case TypeId::kMap:
      out = Json::object();
      for (uint64_t i = 0; i < value.MapSize(); ++i) {
        auto key = value.MapKey(i);
        auto item = value.MapValue(i);
        if (key) out[key->ToString()] = item ? ValueToJson(*item) : Json();
      }
      return out;
    default:
      return ScalarToJson(value, value.type());
  }
}

}  // namespace

Json ValueToJson(const Value& value) {
  if (value.IsNull()) return nullptr;
  return NestedToJson(value);
}

Json CellToJson(const QueryResult& result, uint64_t col, uint64_t row) {
  if (result.IsNull(col, row)) return nullptr;
  const TypeId type = result.column_type(col);
  if (type == TypeId::kVarchar) {
    auto text = result.GetString(col, row);
    if (!text) return nullptr;
    if (result.column_type_alias(col) == kJsonAlias) return JsonTextToJson(*text);
    return *text;
  }
  auto value = result.GetValue(col, row);
  if (!value) {  // types the C API cannot make values of (UNION, BIT, ...): DuckDB's text
    auto text = result.GetAsString(col, row);
    return text ? Json(*text) : Json();
  }
  return ValueToJson(*value);
}

}  // namespace databox::duck
