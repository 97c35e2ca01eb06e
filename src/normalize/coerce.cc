#include "normalize/coerce.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string_view>

#include "common/clock.h"
#include "normalize/iso_datetime.h"

namespace databox::normalize {
namespace {

constexpr int64_t kMicrosPerDay = 86'400 * kMicrosPerSecond;

std::string_view TrimSpace(std::string_view s) {
  auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
  while (!s.empty() && space(s.front())) s.remove_prefix(1);
  while (!s.empty() && space(s.back())) s.remove_suffix(1);
  return s;
}

std::string IntegerText(const Scalar& v) {
  return v.kind == ScalarKind::kWide ? std::to_string(v.wide) : std::to_string(v.int64);
}

//! A numeric Scalar as a double, or nullopt for strings, bools and composites.
std::optional<double> NumberAsDouble(const Scalar& v) {
  switch (v.kind) {
    case ScalarKind::kInt64:
      return static_cast<double>(v.int64);
    case ScalarKind::kWide:
      return static_cast<double>(v.wide);
    case ScalarKind::kDouble:
      return v.real;
    default:
      return std::nullopt;
  }
}

std::optional<int64_t> ParseInt(std::string_view text) {
  text = TrimSpace(text);
  int base = 10;
  if (text.starts_with("0x")) {
    text.remove_prefix(2);
    base = 16;
  } else if (text.starts_with("+")) {
    text.remove_prefix(1);
  }
  int64_t out = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out, base);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return out;
}

std::optional<double> ParseDouble(std::string_view text) {
  text = TrimSpace(text);
  if (text.starts_with("0x")) {
    auto i = ParseInt(text);
    if (!i) return std::nullopt;
    return static_cast<double>(*i);
  }
  if (text.starts_with("+")) text.remove_prefix(1);
  double out = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return out;
}

//! dlt's str2bool.
std::optional<bool> ParseBool(std::string_view text) {
  std::string lower;
  for (char c : TrimSpace(text))
    lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (lower == "yes" || lower == "true" || lower == "t" || lower == "y" || lower == "1")
    return true;
  if (lower == "no" || lower == "false" || lower == "f" || lower == "n" || lower == "0")
    return false;
  return std::nullopt;
}

bool IsDecimalText(std::string_view text) {
  if (text.starts_with("+") || text.starts_with("-")) text.remove_prefix(1);
  bool digits = false;
  bool dot = false;
  std::size_t i = 0;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (c >= '0' && c <= '9') {
      digits = true;
    } else if (c == '.' && !dot) {
      dot = true;
    } else {
      break;
    }
  }
  if (!digits) return false;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
    const std::size_t start = i;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
    if (i == start) return false;
  }
  return i == text.size();
}

std::optional<std::string> DecodeBinaryText(std::string_view text) {
  if (text.starts_with("0x")) {
    text.remove_prefix(2);
    if (text.size() % 2 != 0) return std::nullopt;
    std::string out;
    for (std::size_t i = 0; i < text.size(); i += 2) {
      unsigned byte = 0;
      auto [end, ec] = std::from_chars(text.data() + i, text.data() + i + 2, byte, 16);
      if (ec != std::errc() || end != text.data() + i + 2) return std::nullopt;
      out += static_cast<char>(byte);
    }
    return out;
  }
  // Strict base64 (validate=True in dlt): alphabet, length multiple of 4, '=' only at the end.
  if (text.size() % 4 != 0) return std::nullopt;
  std::string out;
  uint32_t buffer = 0;
  int bits = 0;
  std::size_t padding = 0;
  for (char c : text) {
    int v = -1;
    if (c >= 'A' && c <= 'Z') v = c - 'A';
    if (c >= 'a' && c <= 'z') v = c - 'a' + 26;
    if (c >= '0' && c <= '9') v = c - '0' + 52;
    if (c == '+') v = 62;
    if (c == '/') v = 63;
    if (c == '=') {
      ++padding;
      continue;
    }
    if (v < 0 || padding > 0) return std::nullopt;
    buffer = (buffer << 6) | static_cast<uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += static_cast<char>((buffer >> bits) & 0xFF);
    }
  }
  if (padding > 2) return std::nullopt;
  return out;
}

int64_t FloorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

std::optional<int64_t> SecondsToMicros(double seconds) {
  const double micros = std::round(seconds * kMicrosPerSecond);
  if (!std::isfinite(micros) || std::fabs(micros) > 9.2e18) return std::nullopt;
  return static_cast<int64_t>(micros);
}

}  // namespace

std::string PythonFloatText(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  // Python's repr: shortest round-trip digits; scientific when exponent < -4 or >= 16.
  char digits[32];
  auto [end, ec] =
      std::to_chars(digits, digits + sizeof(digits), value, std::chars_format::scientific);
  std::string_view sci(digits, static_cast<std::size_t>(end - digits));
  const std::size_t e_pos = sci.find('e');
  int exponent = 0;
  std::from_chars(sci.data() + e_pos + 1 + (sci[e_pos + 1] == '+' ? 1 : 0), sci.data() + sci.size(),
                  exponent);
  if (exponent < -4 || exponent >= 16) {
    std::string mantissa(sci.substr(0, e_pos));
    std::string out = mantissa + "e" + (exponent < 0 ? "-" : "+");
    const int abs_exp = exponent < 0 ? -exponent : exponent;
    if (abs_exp < 10) out += "0";
    out += std::to_string(abs_exp);
    return out;
  }
  auto [fend, fec] =
      std::to_chars(digits, digits + sizeof(digits), value, std::chars_format::fixed);
  std::string out(digits, fend);
  if (out.find('.') == std::string::npos) out += ".0";
  return out;
}

Scalar ScalarOf(const Json& value, std::string& composite_text) {
  Scalar out;
  if (value.is_string()) {
    out.kind = ScalarKind::kString;
    out.text = value.get_ref<const std::string&>();
  } else if (value.is_boolean()) {
    out.kind = ScalarKind::kBool;
    out.boolean = value.get<bool>();
  } else if (value.is_number_float()) {
    out.kind = ScalarKind::kDouble;
    out.real = value.get<double>();
  } else if (value.is_number_unsigned() &&
             value.get<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
    out.kind = ScalarKind::kWide;
    out.wide = value.get<uint64_t>();
  } else if (value.is_number_integer()) {
    out.kind = ScalarKind::kInt64;
    out.int64 = value.get<int64_t>();
  } else {
    out.kind = ScalarKind::kComposite;
    composite_text = value.dump();
    out.text = composite_text;
  }
  return out;
}

DataType ValueType(const Scalar& value) {
  switch (value.kind) {
    case ScalarKind::kString:
      return DataType::kText;
    case ScalarKind::kBool:
      return DataType::kBool;
    case ScalarKind::kDouble:
      return DataType::kDouble;
    case ScalarKind::kInt64:
      return DataType::kBigint;
    case ScalarKind::kWide:
      return DataType::kWei;
    case ScalarKind::kComposite:
      return DataType::kJson;
  }
  return DataType::kJson;
}

DataType InferType(const Scalar& value) {
  if (value.kind == ScalarKind::kString && IsIsoTimestamp(value.text)) return DataType::kTimestamp;
  return ValueType(value);
}

std::optional<Cell> Coerce(DataType to, const Scalar& value) {
  const DataType from = ValueType(value);
  const std::string_view* text = value.kind == ScalarKind::kString ? &value.text : nullptr;
  const bool is_number = value.kind == ScalarKind::kInt64 || value.kind == ScalarKind::kWide ||
                         value.kind == ScalarKind::kDouble;
  switch (to) {
    case DataType::kText:
      if (text) return Cell(std::string(*text));
      if (from == DataType::kBool) return Cell(std::string(value.boolean ? "True" : "False"));
      if (from == DataType::kBigint || from == DataType::kWei) return Cell(IntegerText(value));
      if (from == DataType::kDouble) return Cell(PythonFloatText(value.real));
      return Cell(std::string(value.text));
    case DataType::kBigint:
      if (from == DataType::kBigint) return Cell(value.int64);
      if (text) {
        if (auto i = ParseInt(*text)) return Cell(*i);
        return std::nullopt;
      }
      if (from == DataType::kDouble) {
        const double d = value.real;
        if (std::trunc(d) != d || std::fabs(d) >= 9.2e18) return std::nullopt;
        return Cell(static_cast<int64_t>(d));
      }
      return std::nullopt;
    case DataType::kDouble:
      if (is_number) return Cell(*NumberAsDouble(value));
      if (text) {
        if (auto d = ParseDouble(*text)) return Cell(*d);
      }
      return std::nullopt;
    case DataType::kBool:
      if (from == DataType::kBool) return Cell(value.boolean);
      if (text) {
        if (auto b = ParseBool(*text)) return Cell(*b);
        return std::nullopt;
      }
      if (is_number) return Cell(*NumberAsDouble(value) != 0.0);
      return std::nullopt;
    case DataType::kJson:
      if (from == DataType::kJson) return Cell(std::string(value.text));
      if (text) {
        Json parsed = Json::parse(*text, nullptr, /*allow_exceptions=*/false);
        if (parsed.is_discarded()) return std::nullopt;
        return Cell(parsed.dump());
      }
      return std::nullopt;
    case DataType::kTimestamp:
      if (text) {
        auto iso = ParseIsoLike(*text);
        if (!iso) return std::nullopt;
        if (iso->kind == IsoKind::kDateTime) return Cell(iso->value);
        if (iso->kind == IsoKind::kDate) return Cell(iso->value * kMicrosPerDay);
        return std::nullopt;
      }
      if (auto seconds = NumberAsDouble(value)) {
        if (auto micros = SecondsToMicros(*seconds)) return Cell(*micros);
      }
      return std::nullopt;
    case DataType::kDate:
      if (text) {
        auto iso = ParseIsoLike(*text);
        if (!iso) return std::nullopt;
        if (iso->kind == IsoKind::kDate) return Cell(iso->value);
        if (iso->kind == IsoKind::kDateTime) return Cell(FloorDiv(iso->value, kMicrosPerDay));
        return std::nullopt;
      }
      if (auto seconds = NumberAsDouble(value)) {
        if (auto micros = SecondsToMicros(*seconds)) return Cell(FloorDiv(*micros, kMicrosPerDay));
      }
      return std::nullopt;
    case DataType::kTime:
      if (text) {
        auto iso = ParseIsoLike(*text);
        if (iso && iso->kind == IsoKind::kTime) return Cell(iso->value);
      }
      return std::nullopt;
    case DataType::kDecimal:
      if (text) {
        const std::string_view trimmed = TrimSpace(*text);
        if (IsDecimalText(trimmed)) return Cell(std::string(trimmed));
        return std::nullopt;
      }
      if (from == DataType::kBigint || from == DataType::kWei) return Cell(IntegerText(value));
      if (from == DataType::kDouble) return Cell(PythonFloatText(value.real));
      return std::nullopt;
    case DataType::kWei:
      if (from == DataType::kBigint || from == DataType::kWei) return Cell(IntegerText(value));
      if (text) {
        const std::string_view trimmed = TrimSpace(*text);
        if (!trimmed.empty() &&
            trimmed.find_first_not_of("0123456789-") == std::string_view::npos) {
          return Cell(std::string(trimmed));
        }
      }
      return std::nullopt;
    case DataType::kBinary:
      if (text) {
        if (auto bytes = DecodeBinaryText(*text)) return Cell(*bytes);
        return std::nullopt;
      }
      if (from == DataType::kBigint && value.int64 >= 0) {
        // Little-endian, as few bytes as the value needs (zero -> no bytes).
        std::string out;
        for (auto v = static_cast<uint64_t>(value.int64); v != 0; v >>= 8) {
          out += static_cast<char>(v & 0xFF);
        }
        return Cell(out);
      }
      return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace databox::normalize
