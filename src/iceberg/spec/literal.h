// Typed single values: partition values, column bounds. Serialized per table spec
// Appendix D (binary single-value form and JSON single-value form).
#pragma once

#include <array>
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "common/error.h"
#include "iceberg/spec/types.h"

namespace databox::iceberg {

__extension__ typedef __int128 Int128;            // decimals up to precision 38
__extension__ typedef unsigned __int128 UInt128;  // bit manipulation of Int128

//! Unscaled decimal value; the scale lives in the literal's type.
struct DecimalValue {
  Int128 unscaled = 0;
  friend bool operator==(const DecimalValue&, const DecimalValue&) = default;
};
//! 16 UUID bytes in big-endian (RFC 4122 text order).
using UuidBytes = std::array<uint8_t, 16>;
using Bytes = std::vector<uint8_t>;

//! A non-null value of a primitive type. Storage per type: boolean bool; int, date int32
//! (days since 1970-01-01); long, time, timestamp, timestamptz int64 (microseconds);
//! float float; double double; decimal DecimalValue; string std::string (UTF-8);
//! uuid UuidBytes; fixed, binary Bytes.
class Literal {
 public:
  using Value = std::variant<bool, int32_t, int64_t, float, double, DecimalValue, std::string,
                             UuidBytes, Bytes>;

  static Literal Boolean(bool v) { return Literal(Type::Boolean(), v); }
  static Literal Int(int32_t v) { return Literal(Type::Int(), v); }
  static Literal Long(int64_t v) { return Literal(Type::Long(), v); }
  static Literal Float(float v) { return Literal(Type::Float(), v); }
  static Literal Double(double v) { return Literal(Type::Double(), v); }
  static Literal Decimal(Int128 unscaled, int32_t precision, int32_t scale) {
    return Literal(Type::Decimal(precision, scale), DecimalValue{unscaled});
  }
  static Literal Date(int32_t days) { return Literal(Type::Date(), days); }
  static Literal Time(int64_t micros) { return Literal(Type::Time(), micros); }
  static Literal Timestamp(int64_t micros) { return Literal(Type::Timestamp(), micros); }
  static Literal TimestampTz(int64_t micros) { return Literal(Type::TimestampTz(), micros); }
  static Literal String(std::string v) { return Literal(Type::String(), std::move(v)); }
  static Literal Uuid(UuidBytes v) { return Literal(Type::Uuid(), v); }
  static Literal Fixed(Bytes v) {
    const auto n = static_cast<int32_t>(v.size());
    return Literal(Type::Fixed(n), std::move(v));
  }
  static Literal Binary(Bytes v) { return Literal(Type::Binary(), std::move(v)); }
  //! Builds a literal checking that the storage alternative matches the type.
  static Result<Literal> Make(Type type, Value value);

  const Type& type() const { return type_; }
  const Value& value() const { return value_; }
  //! The value as int64 for int/long/date/time/timestamp(tz); error for other types.
  Result<int64_t> AsInt64() const;

  //! Appendix D binary single-value serialization (what manifests store as bounds).
  Bytes ToBytes() const;
  //! Inverse of ToBytes for a primitive type.
  static Result<Literal> FromBytes(const Type& type, std::span<const uint8_t> bytes);

  //! Appendix D JSON single-value serialization (numbers, ISO strings, hex for binary).
  nlohmann::json ToJson() const;
  static Result<Literal> FromJson(const Type& type, const nlohmann::json& json);

  //! Parses the text DuckDB prints for a value of `type` (min/max stats, CAST(x AS VARCHAR)):
  //! "2026-02-08 00:00:00[.ffffff]", "2026-02-08 00:00:00+00", "2026-02-08", "1.5", "true",
  //! "\x00\x01" for blobs. Also accepts ISO "T" separators.
  static Result<Literal> Parse(const Type& type, std::string_view text);

  //! Human-readable form (the JSON form, unquoted); for messages and tests.
  std::string ToString() const;

  //! Same type and value. Doubles compare bitwise-equal values (NaN != NaN).
  friend bool operator==(const Literal&, const Literal&) = default;
  //! Orders two literals of the same type; error if types differ or are not comparable.
  static Result<int> Compare(const Literal& a, const Literal& b);

 private:
  Literal(Type type, Value value) : type_(std::move(type)), value_(std::move(value)) {}

  Type type_;
  Value value_;
};

//! Days since 1970-01-01 for a civil date (proleptic Gregorian).
int32_t DaysFromCivil(int32_t year, uint32_t month, uint32_t day);
//! Formats a 16-byte UUID as lowercase 8-4-4-4-12 text; parse is the inverse.
std::string FormatUuid(const UuidBytes& uuid);
Result<UuidBytes> ParseUuid(std::string_view text);

}  // namespace databox::iceberg
