#include "iceberg/spec/literal.h"

#include <bit>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstring>
#include <nlohmann/json.hpp>
#include <random>
#include <string>

namespace databox::iceberg {

namespace {

constexpr int64_t kMicrosPerSecond = 1000000;
constexpr int64_t kMicrosPerDay = 86400 * kMicrosPerSecond;

std::unexpected<Error> ValueError(const Type& type, std::string_view text, std::string_view why) {
  return MakeError(ErrorKind::kData, "cannot read \"" + std::string(text) + "\" as " +
                                         type.ToString() + ": " + std::string(why));
}

template <typename T>
void AppendLittleEndian(Bytes& out, T value) {
  using U = std::make_unsigned_t<T>;
  U u = static_cast<U>(value);
  for (size_t i = 0; i < sizeof(T); ++i) {
    out.push_back(static_cast<uint8_t>(u & 0xff));
    u = static_cast<U>(u >> 8);
  }
}

template <typename T>
T ReadLittleEndian(std::span<const uint8_t> bytes) {
  using U = std::make_unsigned_t<T>;
  U u = 0;
  for (size_t i = sizeof(T); i-- > 0;) u = static_cast<U>((u << 8) | bytes[i]);
  return static_cast<T>(u);
}

//! Minimal two's-complement big-endian bytes (Java BigInteger.toByteArray()).
Bytes DecimalBytes(Int128 v) {
  Bytes out;
  for (int i = 15; i >= 0; --i)
    out.push_back(static_cast<uint8_t>(static_cast<UInt128>(v) >> (8 * i)));
  size_t start = 0;
  while (start + 1 < out.size()) {
    const bool redundant = (out[start] == 0x00 && (out[start + 1] & 0x80) == 0) ||
                           (out[start] == 0xff && (out[start + 1] & 0x80) != 0);
    if (!redundant) break;
    ++start;
  }
  return Bytes(out.begin() + static_cast<std::ptrdiff_t>(start), out.end());
}

std::string Int128ToString(Int128 v) {
  if (v == 0) return "0";
  const bool negative = v < 0;
  UInt128 u = negative ? static_cast<UInt128>(-(v + 1)) + 1 : static_cast<UInt128>(v);
  std::string digits;
  while (u > 0) {
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(u % 10)));
    u /= 10;
  }
  return negative ? "-" + digits : digits;
}

std::string FormatDecimal(Int128 unscaled, int32_t scale) {
  std::string digits = Int128ToString(unscaled);
  std::string sign;
  if (digits[0] == '-') {
    sign = "-";
    digits.erase(0, 1);
  }
  if (scale <= 0) return sign + digits;
  while (static_cast<int32_t>(digits.size()) <= scale) digits.insert(digits.begin(), '0');
  return sign + digits.substr(0, digits.size() - static_cast<size_t>(scale)) + "." +
         digits.substr(digits.size() - static_cast<size_t>(scale));
}

Result<Int128> ParseDecimal(const Type& type, std::string_view text) {
  std::string_view s = text;
  bool negative = false;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  const auto dot = s.find('.');
  std::string_view int_part = s.substr(0, dot);
  std::string_view frac = dot == std::string_view::npos ? std::string_view() : s.substr(dot + 1);
  if (int_part.empty() && frac.empty()) return ValueError(type, text, "no digits");
  while (static_cast<int32_t>(frac.size()) > type.scale() && frac.back() == '0')
    frac.remove_suffix(1);
  if (static_cast<int32_t>(frac.size()) > type.scale()) {
    return ValueError(type, text, "more fractional digits than the scale allows");
  }
  Int128 v = 0;
  int digits = 0;
  auto add = [&](char c) -> bool {
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
    if (v != 0) ++digits;
    return true;
  };
  for (char c : int_part) {
    if (!add(c)) return ValueError(type, text, "not a decimal number");
  }
  for (char c : frac) {
    if (!add(c)) return ValueError(type, text, "not a decimal number");
  }
  for (int32_t i = static_cast<int32_t>(frac.size()); i < type.scale(); ++i) {
    v *= 10;
    if (v != 0) ++digits;
  }
  if (digits > type.precision()) return ValueError(type, text, "too many digits for the precision");
  return negative ? -v : v;
}

template <typename T>
Result<T> ParseNumber(const Type& type, std::string_view text) {
  T v{};
  const char* begin = text.data();
  if (!text.empty() && text[0] == '+') ++begin;
  auto [end, ec] = std::from_chars(begin, text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size()) {
    return ValueError(type, text, "not a number of this type");
  }
  return v;
}

//! Reads exactly `n` digits at `pos`.
bool ReadDigits(std::string_view s, size_t& pos, size_t n, int64_t& out) {
  if (pos + n > s.size()) return false;
  out = 0;
  for (size_t i = 0; i < n; ++i) {
    const char c = s[pos + i];
    if (c < '0' || c > '9') return false;
    out = out * 10 + (c - '0');
  }
  pos += n;
  return true;
}

//! "YYYY-MM-DD" at pos; a leading '-' or more than 4 year digits are accepted.
bool ReadDate(std::string_view s, size_t& pos, int32_t& days) {
  bool negative = false;
  if (pos < s.size() && (s[pos] == '-' || s[pos] == '+')) {
    negative = s[pos] == '-';
    ++pos;
  }
  size_t year_end = pos;
  while (year_end < s.size() && s[year_end] >= '0' && s[year_end] <= '9') ++year_end;
  int64_t year = 0, month = 0, day = 0;
  if (year_end - pos < 4 || !ReadDigits(s, pos, year_end - pos, year)) return false;
  if (pos >= s.size() || s[pos++] != '-' || !ReadDigits(s, pos, 2, month)) return false;
  if (pos >= s.size() || s[pos++] != '-' || !ReadDigits(s, pos, 2, day)) return false;
  const std::chrono::year_month_day ymd{
      std::chrono::year(static_cast<int>(negative ? -year : year)),
      std::chrono::month(static_cast<unsigned>(month)),
      std::chrono::day(static_cast<unsigned>(day))};
  if (!ymd.ok()) return false;
  days = static_cast<int32_t>(std::chrono::sys_days(ymd).time_since_epoch().count());
  return true;
}

//! "HH:MM:SS[.f{1,9}]" at pos, as microseconds (digits beyond 6 are truncated).
bool ReadTime(std::string_view s, size_t& pos, int64_t& micros) {
  int64_t h = 0, m = 0, sec = 0;
  if (!ReadDigits(s, pos, 2, h) || pos >= s.size() || s[pos++] != ':') return false;
  if (!ReadDigits(s, pos, 2, m)) return false;
  if (pos < s.size() && s[pos] == ':') {
    ++pos;
    if (!ReadDigits(s, pos, 2, sec)) return false;
  }
  if (h > 23 || m > 59 || sec > 59) return false;
  int64_t frac = 0;
  if (pos < s.size() && s[pos] == '.') {
    ++pos;
    int digits = 0;
    while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') {
      if (digits < 6) frac = frac * 10 + (s[pos] - '0');
      ++digits;
      ++pos;
    }
    if (digits == 0) return false;
    for (int i = digits; i < 6; ++i) frac *= 10;
  }
  micros = ((h * 60 + m) * 60 + sec) * kMicrosPerSecond + frac;
  return true;
}

//! "Z", "+HH", "+HH:MM", "+HHMM" (and '-') at pos, as an offset in microseconds.
bool ReadOffset(std::string_view s, size_t& pos, int64_t& offset_micros) {
  if (pos < s.size() && s[pos] == ' ') ++pos;
  if (pos < s.size() && (s[pos] == 'Z' || s[pos] == 'z')) {
    ++pos;
    offset_micros = 0;
    return true;
  }
  if (pos >= s.size() || (s[pos] != '+' && s[pos] != '-')) return false;
  const bool negative = s[pos++] == '-';
  int64_t h = 0, m = 0;
  if (!ReadDigits(s, pos, 2, h)) return false;
  if (pos < s.size() && s[pos] == ':') ++pos;
  if (pos < s.size() && !ReadDigits(s, pos, 2, m)) return false;
  offset_micros = (h * 60 + m) * 60 * kMicrosPerSecond * (negative ? -1 : 1);
  return true;
}

std::string TwoDigits(int64_t v) { return (v < 10 ? "0" : "") + std::to_string(v); }

std::string FormatDate(int32_t days) {
  const std::chrono::year_month_day ymd{std::chrono::sys_days(std::chrono::days(days))};
  const int year = static_cast<int>(ymd.year());
  std::string y = std::to_string(year < 0 ? -year : year);
  while (y.size() < 4) y.insert(y.begin(), '0');
  return (year < 0 ? "-" : "") + y + "-" + TwoDigits(static_cast<unsigned>(ymd.month())) + "-" +
         TwoDigits(static_cast<unsigned>(ymd.day()));
}

std::string FormatTime(int64_t micros) {
  const int64_t seconds = micros / kMicrosPerSecond;
  std::string frac = std::to_string(micros % kMicrosPerSecond);
  while (frac.size() < 6) frac.insert(frac.begin(), '0');
  return TwoDigits(seconds / 3600) + ":" + TwoDigits(seconds / 60 % 60) + ":" +
         TwoDigits(seconds % 60) + "." + frac;
}

int64_t FloorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

std::string FormatTimestamp(int64_t micros) {
  const int64_t days = FloorDiv(micros, kMicrosPerDay);
  return FormatDate(static_cast<int32_t>(days)) + "T" + FormatTime(micros - days * kMicrosPerDay);
}

constexpr char kHex[] = "0123456789ABCDEF";

std::string ToHex(const Bytes& bytes) {
  std::string out;
  for (uint8_t b : bytes) {
    out.push_back(kHex[b >> 4]);
    out.push_back(kHex[b & 0xf]);
  }
  return out;
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::optional<Bytes> FromHex(std::string_view s) {
  if (s.size() % 2 != 0) return std::nullopt;
  Bytes out;
  for (size_t i = 0; i < s.size(); i += 2) {
    const int hi = HexValue(s[i]), lo = HexValue(s[i + 1]);
    if (hi < 0 || lo < 0) return std::nullopt;
    out.push_back(static_cast<uint8_t>(hi * 16 + lo));
  }
  return out;
}

//! DuckDB prints blobs with printable ASCII as is and other bytes as \xHH.
std::optional<Bytes> FromDuckDbBlob(std::string_view s) {
  Bytes out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 3 < s.size() + 0 && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
      const int hi = HexValue(s[i + 2]), lo = HexValue(s[i + 3]);
      if (hi < 0 || lo < 0) return std::nullopt;
      out.push_back(static_cast<uint8_t>(hi * 16 + lo));
      i += 3;
    } else {
      out.push_back(static_cast<uint8_t>(s[i]));
    }
  }
  return out;
}

bool Matches(const Type& type, const Literal::Value& value) {
  switch (type.id()) {
    case TypeId::kBoolean:
      return std::holds_alternative<bool>(value);
    case TypeId::kInt:
    case TypeId::kDate:
      return std::holds_alternative<int32_t>(value);
    case TypeId::kLong:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
      return std::holds_alternative<int64_t>(value);
    case TypeId::kFloat:
      return std::holds_alternative<float>(value);
    case TypeId::kDouble:
      return std::holds_alternative<double>(value);
    case TypeId::kDecimal:
      return std::holds_alternative<DecimalValue>(value);
    case TypeId::kString:
      return std::holds_alternative<std::string>(value);
    case TypeId::kUuid:
      return std::holds_alternative<UuidBytes>(value);
    case TypeId::kFixed:
      return std::holds_alternative<Bytes>(value) &&
             static_cast<int32_t>(std::get<Bytes>(value).size()) == type.length();
    case TypeId::kBinary:
      return std::holds_alternative<Bytes>(value);
    default:
      return false;
  }
}

}  // namespace

int32_t DaysFromCivil(int32_t year, uint32_t month, uint32_t day) {
  const std::chrono::year_month_day ymd{std::chrono::year(year), std::chrono::month(month),
                                        std::chrono::day(day)};
  return static_cast<int32_t>(std::chrono::sys_days(ymd).time_since_epoch().count());
}

std::string FormatUuid(const UuidBytes& uuid) {
  static constexpr char kLowerHex[] = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < uuid.size(); ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) out.push_back('-');
    out.push_back(kLowerHex[uuid[i] >> 4]);
    out.push_back(kLowerHex[uuid[i] & 0xf]);
  }
  return out;
}

Result<UuidBytes> ParseUuid(std::string_view text) {
  std::string hex;
  for (char c : text) {
    if (c != '-') hex.push_back(c);
  }
  auto bytes = FromHex(hex);
  if (!bytes || bytes->size() != 16 || text.size() != 36) {
    return MakeError(ErrorKind::kData, "\"" + std::string(text) +
                                           "\" is not a UUID (expected 8-4-4-4-12 hex digits)");
  }
  UuidBytes out;
  std::copy(bytes->begin(), bytes->end(), out.begin());
  return out;
}

Result<Literal> Literal::Make(Type type, Value value) {
  if (!Matches(type, value)) {
    return MakeError(ErrorKind::kInternal,
                     "literal value does not match its type " + type.ToString());
  }
  return Literal(std::move(type), std::move(value));
}

Result<int64_t> Literal::AsInt64() const {
  if (const auto* i = std::get_if<int32_t>(&value_)) return *i;
  if (const auto* l = std::get_if<int64_t>(&value_)) return *l;
  return MakeError(ErrorKind::kInternal, "a " + type_.ToString() + " value is not an integer");
}

Bytes Literal::ToBytes() const {
  Bytes out;
  std::visit(
      [&](const auto& v) {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, bool>) {
          out.push_back(v ? 1 : 0);
        } else if constexpr (std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t>) {
          AppendLittleEndian(out, v);
        } else if constexpr (std::is_same_v<T, float>) {
          AppendLittleEndian(out, std::bit_cast<uint32_t>(v));
        } else if constexpr (std::is_same_v<T, double>) {
          AppendLittleEndian(out, std::bit_cast<uint64_t>(v));
        } else if constexpr (std::is_same_v<T, DecimalValue>) {
          out = DecimalBytes(v.unscaled);
        } else if constexpr (std::is_same_v<T, std::string>) {
          out.assign(v.begin(), v.end());
        } else {  // UuidBytes, Bytes
          out.assign(v.begin(), v.end());
        }
      },
      value_);
  return out;
}

Result<Literal> Literal::FromBytes(const Type& type, std::span<const uint8_t> bytes) {
  auto wrong_size = [&]() {
    return MakeError(ErrorKind::kData, "a " + type.ToString() + " value cannot be " +
                                           std::to_string(bytes.size()) +
                                           " bytes long; the bound or partition value is corrupt");
  };
  switch (type.id()) {
    case TypeId::kBoolean:
      if (bytes.size() != 1) return wrong_size();
      return Literal(type, bytes[0] != 0);
    case TypeId::kInt:
    case TypeId::kDate:
      if (bytes.size() != 4) return wrong_size();
      return Literal(type, ReadLittleEndian<int32_t>(bytes));
    case TypeId::kLong:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
      // A long column promoted from int may still hold 4-byte bounds (spec Appendix D).
      if (bytes.size() == 4 && type.id() == TypeId::kLong) {
        return Literal(type, static_cast<int64_t>(ReadLittleEndian<int32_t>(bytes)));
      }
      if (bytes.size() != 8) return wrong_size();
      return Literal(type, ReadLittleEndian<int64_t>(bytes));
    case TypeId::kFloat:
      if (bytes.size() != 4) return wrong_size();
      return Literal(type, std::bit_cast<float>(ReadLittleEndian<uint32_t>(bytes)));
    case TypeId::kDouble:
      if (bytes.size() == 4) {  // promoted from float
        return Literal(
            type, static_cast<double>(std::bit_cast<float>(ReadLittleEndian<uint32_t>(bytes))));
      }
      if (bytes.size() != 8) return wrong_size();
      return Literal(type, std::bit_cast<double>(ReadLittleEndian<uint64_t>(bytes)));
    case TypeId::kDecimal: {
      if (bytes.empty() || bytes.size() > 16) return wrong_size();
      UInt128 u = (bytes[0] & 0x80) ? ~static_cast<UInt128>(0) : 0;
      for (uint8_t b : bytes) u = (u << 8) | b;
      return Literal(type, DecimalValue{static_cast<Int128>(u)});
    }
    case TypeId::kString:
      return Literal(type, std::string(bytes.begin(), bytes.end()));
    case TypeId::kUuid: {
      if (bytes.size() != 16) return wrong_size();
      UuidBytes u;
      std::copy(bytes.begin(), bytes.end(), u.begin());
      return Literal(type, u);
    }
    case TypeId::kFixed:
      if (static_cast<int32_t>(bytes.size()) != type.length()) return wrong_size();
      return Literal(type, Bytes(bytes.begin(), bytes.end()));
    case TypeId::kBinary:
      return Literal(type, Bytes(bytes.begin(), bytes.end()));
    default:
      return MakeError(ErrorKind::kData,
                       "nested type " + type.ToString() + " has no single-value form");
  }
}

nlohmann::json Literal::ToJson() const {
  switch (type_.id()) {
    case TypeId::kBoolean:
      return std::get<bool>(value_);
    case TypeId::kInt:
      return std::get<int32_t>(value_);
    case TypeId::kLong:
      return std::get<int64_t>(value_);
    case TypeId::kFloat:
      return std::get<float>(value_);
    case TypeId::kDouble:
      return std::get<double>(value_);
    case TypeId::kDecimal:
      return FormatDecimal(std::get<DecimalValue>(value_).unscaled, type_.scale());
    case TypeId::kDate:
      return FormatDate(std::get<int32_t>(value_));
    case TypeId::kTime:
      return FormatTime(std::get<int64_t>(value_));
    case TypeId::kTimestamp:
      return FormatTimestamp(std::get<int64_t>(value_));
    case TypeId::kTimestampTz:
      return FormatTimestamp(std::get<int64_t>(value_)) + "+00:00";
    case TypeId::kString:
      return std::get<std::string>(value_);
    case TypeId::kUuid:
      return FormatUuid(std::get<UuidBytes>(value_));
    default:  // fixed, binary
      return ToHex(std::get<Bytes>(value_));
  }
}

Result<Literal> Literal::FromJson(const Type& type, const nlohmann::json& json) {
  const std::string shown = json.dump();
  switch (type.id()) {
    case TypeId::kBoolean:
      if (!json.is_boolean()) return ValueError(type, shown, "expected true or false");
      return Literal(type, json.get<bool>());
    case TypeId::kInt:
    case TypeId::kLong:
      if (!json.is_number_integer()) return ValueError(type, shown, "expected a JSON integer");
      if (type.id() == TypeId::kInt) return Literal(type, json.get<int32_t>());
      return Literal(type, json.get<int64_t>());
    case TypeId::kFloat:
      if (!json.is_number()) return ValueError(type, shown, "expected a JSON number");
      return Literal(type, json.get<float>());
    case TypeId::kDouble:
      if (!json.is_number()) return ValueError(type, shown, "expected a JSON number");
      return Literal(type, json.get<double>());
    case TypeId::kFixed:
    case TypeId::kBinary: {
      if (!json.is_string()) return ValueError(type, shown, "expected a hex string");
      auto bytes = FromHex(json.get<std::string>());
      if (!bytes) return ValueError(type, shown, "expected an even number of hex digits");
      return Make(type, std::move(*bytes));
    }
    default:
      if (!json.is_string()) return ValueError(type, shown, "expected a JSON string");
      return Parse(type, json.get<std::string>());
  }
}

Result<Literal> Literal::Parse(const Type& type, std::string_view text) {
  switch (type.id()) {
    case TypeId::kBoolean:
      if (text == "true" || text == "TRUE" || text == "True") return Literal(type, true);
      if (text == "false" || text == "FALSE" || text == "False") return Literal(type, false);
      return ValueError(type, text, "expected true or false");
    case TypeId::kInt: {
      DATABOX_ASSIGN_OR_RETURN(int32_t v, ParseNumber<int32_t>(type, text));
      return Literal(type, v);
    }
    case TypeId::kLong: {
      DATABOX_ASSIGN_OR_RETURN(int64_t v, ParseNumber<int64_t>(type, text));
      return Literal(type, v);
    }
    case TypeId::kFloat: {
      DATABOX_ASSIGN_OR_RETURN(float v, ParseNumber<float>(type, text));
      return Literal(type, v);
    }
    case TypeId::kDouble: {
      DATABOX_ASSIGN_OR_RETURN(double v, ParseNumber<double>(type, text));
      return Literal(type, v);
    }
    case TypeId::kDecimal: {
      DATABOX_ASSIGN_OR_RETURN(Int128 v, ParseDecimal(type, text));
      return Literal(type, DecimalValue{v});
    }
    case TypeId::kDate: {
      size_t pos = 0;
      int32_t days = 0;
      if (!ReadDate(text, pos, days) || pos != text.size()) {
        return ValueError(type, text, "expected YYYY-MM-DD");
      }
      return Literal(type, days);
    }
    case TypeId::kTime: {
      size_t pos = 0;
      int64_t micros = 0;
      if (!ReadTime(text, pos, micros) || pos != text.size()) {
        return ValueError(type, text, "expected HH:MM:SS[.ffffff]");
      }
      return Literal(type, micros);
    }
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz: {
      size_t pos = 0;
      int32_t days = 0;
      int64_t micros = 0;
      if (!ReadDate(text, pos, days) || pos >= text.size() ||
          (text[pos] != ' ' && text[pos] != 'T') || !ReadTime(text, ++pos, micros)) {
        return ValueError(type, text, "expected YYYY-MM-DD HH:MM:SS[.ffffff]");
      }
      int64_t offset = 0;
      if (pos != text.size()) {
        if (!ReadOffset(text, pos, offset) || pos != text.size()) {
          return ValueError(type, text, "unexpected text after the time (expected a UTC offset)");
        }
        if (type.id() == TypeId::kTimestamp && offset != 0) {
          return ValueError(type, text, "a timestamp without time zone cannot carry an offset");
        }
      } else if (type.id() == TypeId::kTimestampTz) {
        // DuckDB prints timestamptz with an offset; a bare value is read as UTC.
        offset = 0;
      }
      return Literal(type, static_cast<int64_t>(days) * kMicrosPerDay + micros - offset);
    }
    case TypeId::kString:
      return Literal(type, std::string(text));
    case TypeId::kUuid: {
      DATABOX_ASSIGN_OR_RETURN(UuidBytes u, ParseUuid(text));
      return Literal(type, u);
    }
    case TypeId::kFixed:
    case TypeId::kBinary: {
      auto bytes = FromDuckDbBlob(text);
      if (!bytes) return ValueError(type, text, "bad \\x escape in blob text");
      if (type.id() == TypeId::kFixed && static_cast<int32_t>(bytes->size()) != type.length()) {
        return ValueError(type, text, "wrong length for the fixed type");
      }
      return Literal(type, std::move(*bytes));
    }
    default:
      return ValueError(type, text, "nested types have no single-value form");
  }
}

std::string Literal::ToString() const {
  const nlohmann::json j = ToJson();
  return j.is_string() ? j.get<std::string>() : j.dump();
}

Result<int> Literal::Compare(const Literal& a, const Literal& b) {
  if (!(a.type_ == b.type_)) {
    return MakeError(ErrorKind::kInternal,
                     "cannot compare a " + a.type_.ToString() + " with a " + b.type_.ToString());
  }
  return std::visit(
      [&](const auto& x) -> Result<int> {
        using T = std::decay_t<decltype(x)>;
        const auto& y = std::get<T>(b.value_);
        if constexpr (std::is_same_v<T, DecimalValue>) {
          return x.unscaled < y.unscaled ? -1 : (y.unscaled < x.unscaled ? 1 : 0);
        } else {
          // strings compare as unsigned UTF-8 bytes, which orders by code point.
          if constexpr (std::is_same_v<T, std::string>) {
            const int c = std::memcmp(x.data(), y.data(), std::min(x.size(), y.size()));
            if (c != 0) return c < 0 ? -1 : 1;
            return x.size() < y.size() ? -1 : (y.size() < x.size() ? 1 : 0);
          } else {
            return x < y ? -1 : (y < x ? 1 : 0);
          }
        }
      },
      a.value_);
}

}  // namespace databox::iceberg
