#include "iceberg/spec/transform.h"

#include <bit>
#include <charconv>
#include <chrono>
#include <limits>
#include <string>

namespace databox::iceberg {

namespace {

constexpr int64_t kMicrosPerHour = int64_t{3600} * 1000000;
constexpr int64_t kMicrosPerDay = 24 * kMicrosPerHour;
constexpr int32_t kEpochYear = 1970;

struct TransformName {
  std::string_view name;
  TransformKind kind;
};
constexpr TransformName kNames[] = {
    {"identity", TransformKind::kIdentity}, {"year", TransformKind::kYear},
    {"month", TransformKind::kMonth},       {"day", TransformKind::kDay},
    {"hour", TransformKind::kHour},         {"void", TransformKind::kVoid},
};

int64_t FloorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

template <typename T>
T FloorMod(T a, T b) {
  return ((a % b) + b) % b;
}

std::chrono::year_month_day CivilFromDays(int64_t days) {
  return std::chrono::year_month_day{std::chrono::sys_days(std::chrono::days(days))};
}

bool IsTimeLike(TypeId id) {
  return id == TypeId::kDate || id == TypeId::kTimestamp || id == TypeId::kTimestampTz;
}

//! Days since epoch of a date or timestamp literal.
int64_t EpochDays(const Literal& v) {
  if (v.type().id() == TypeId::kDate) return std::get<int32_t>(v.value());
  return FloorDiv(std::get<int64_t>(v.value()), kMicrosPerDay);
}

//! Index of the byte that starts code point number `n` (or size if fewer).
size_t Utf8Prefix(const std::string& s, int32_t n) {
  size_t pos = 0;
  for (int32_t count = 0; pos < s.size() && count < n; ++count) {
    ++pos;
    while (pos < s.size() && (static_cast<uint8_t>(s[pos]) & 0xc0) == 0x80) ++pos;
  }
  return pos;
}

}  // namespace

int32_t Murmur3Hash32(std::span<const uint8_t> bytes) {
  constexpr uint32_t c1 = 0xcc9e2d51, c2 = 0x1b873593;
  uint32_t h = 0;
  const size_t blocks = bytes.size() / 4;
  for (size_t i = 0; i < blocks; ++i) {
    uint32_t k = static_cast<uint32_t>(bytes[4 * i]) |
                 (static_cast<uint32_t>(bytes[4 * i + 1]) << 8) |
                 (static_cast<uint32_t>(bytes[4 * i + 2]) << 16) |
                 (static_cast<uint32_t>(bytes[4 * i + 3]) << 24);
    k *= c1;
    k = std::rotl(k, 15);
    k *= c2;
    h ^= k;
    h = std::rotl(h, 13);
    h = h * 5 + 0xe6546b64;
  }
  uint32_t k = 0;
  const size_t tail = blocks * 4;
  switch (bytes.size() & 3) {
    case 3:
      k ^= static_cast<uint32_t>(bytes[tail + 2]) << 16;
      [[fallthrough]];
    case 2:
      k ^= static_cast<uint32_t>(bytes[tail + 1]) << 8;
      [[fallthrough]];
    case 1:
      k ^= bytes[tail];
      k *= c1;
      k = std::rotl(k, 15);
      k *= c2;
      h ^= k;
  }
  h ^= static_cast<uint32_t>(bytes.size());
  h ^= h >> 16;
  h *= 0x85ebca6b;
  h ^= h >> 13;
  h *= 0xc2b2ae35;
  h ^= h >> 16;
  return static_cast<int32_t>(h);
}

Result<int32_t> IcebergHash(const Literal& value) {
  switch (value.type().id()) {
    case TypeId::kInt:
    case TypeId::kLong:
    case TypeId::kDate:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz: {
      // All integer-like values hash as an 8-byte little-endian long.
      DATABOX_ASSIGN_OR_RETURN(int64_t v, value.AsInt64());
      return Murmur3Hash32(Literal::Long(v).ToBytes());
    }
    case TypeId::kDecimal:
    case TypeId::kString:
    case TypeId::kUuid:
    case TypeId::kFixed:
    case TypeId::kBinary:
      return Murmur3Hash32(value.ToBytes());
    default:
      return MakeError(ErrorKind::kData, "values of type " + value.type().ToString() +
                                             " cannot be hashed for bucket partitioning");
  }
}

Result<Transform> Transform::Parse(std::string_view text) {
  for (const auto& n : kNames) {
    if (n.name == text) return Transform(n.kind, 0);
  }
  for (auto [prefix, kind] :
       {std::pair<std::string_view, TransformKind>{"bucket[", TransformKind::kBucket},
        {"truncate[", TransformKind::kTruncate}}) {
    if (text.starts_with(prefix) && text.ends_with("]")) {
      const std::string_view digits = text.substr(prefix.size(), text.size() - prefix.size() - 1);
      int32_t n = 0;
      auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
      if (ec == std::errc() && end == digits.data() + digits.size() && n > 0)
        return Transform(kind, n);
    }
  }
  return MakeError(ErrorKind::kData, "unknown partition transform \"" + std::string(text) +
                                         "\" (expected identity, year, month, day, hour, "
                                         "bucket[N], truncate[W] or void)");
}

std::string Transform::ToString() const {
  if (kind_ == TransformKind::kBucket) return "bucket[" + std::to_string(param_) + "]";
  if (kind_ == TransformKind::kTruncate) return "truncate[" + std::to_string(param_) + "]";
  for (const auto& n : kNames) {
    if (n.kind == kind_) return std::string(n.name);
  }
  return "unknown";
}

bool Transform::CanTransform(const Type& source) const {
  const TypeId id = source.id();
  switch (kind_) {
    case TransformKind::kIdentity:
      return source.is_primitive();
    case TransformKind::kVoid:
      return true;
    case TransformKind::kBucket:
      return source.is_primitive() && id != TypeId::kBoolean && id != TypeId::kFloat &&
             id != TypeId::kDouble;
    case TransformKind::kTruncate:
      return id == TypeId::kInt || id == TypeId::kLong || id == TypeId::kDecimal ||
             id == TypeId::kString || id == TypeId::kBinary;
    case TransformKind::kYear:
    case TransformKind::kMonth:
    case TransformKind::kDay:
      return IsTimeLike(id);
    case TransformKind::kHour:
      return id == TypeId::kTimestamp || id == TypeId::kTimestampTz;
  }
  return false;
}

Result<Type> Transform::ResultType(const Type& source) const {
  if (!CanTransform(source)) {
    return MakeError(ErrorKind::kData, "partition transform " + ToString() +
                                           " cannot be applied to a " + source.ToString() +
                                           " column; pick a transform the spec allows for it");
  }
  switch (kind_) {
    case TransformKind::kBucket:
    case TransformKind::kYear:
    case TransformKind::kMonth:
    case TransformKind::kHour:
      return Type::Int();
    case TransformKind::kDay:
      return Type::Date();
    default:
      return source;
  }
}

Result<Literal> Transform::Apply(const Literal& value) const {
  DATABOX_RETURN_IF_ERROR(ResultType(value.type()));
  switch (kind_) {
    case TransformKind::kIdentity:
      return value;
    case TransformKind::kVoid:
      return MakeError(ErrorKind::kInternal,
                       "the void transform always yields null; check produces_null()");
    case TransformKind::kYear:
      return Literal::Int(static_cast<int>(CivilFromDays(EpochDays(value)).year()) - kEpochYear);
    case TransformKind::kMonth: {
      const auto ymd = CivilFromDays(EpochDays(value));
      return Literal::Int((static_cast<int>(ymd.year()) - kEpochYear) * 12 +
                          static_cast<int>(static_cast<unsigned>(ymd.month())) - 1);
    }
    case TransformKind::kDay:
      return Literal::Date(static_cast<int32_t>(EpochDays(value)));
    case TransformKind::kHour:
      return Literal::Int(
          static_cast<int32_t>(FloorDiv(std::get<int64_t>(value.value()), kMicrosPerHour)));
    case TransformKind::kBucket: {
      DATABOX_ASSIGN_OR_RETURN(int32_t hash, IcebergHash(value));
      return Literal::Int((hash & std::numeric_limits<int32_t>::max()) % param_);
    }
    case TransformKind::kTruncate:
      break;
  }
  const Type& type = value.type();
  switch (type.id()) {
    case TypeId::kInt: {
      const int32_t v = std::get<int32_t>(value.value());
      return Literal::Int(v - FloorMod(v, param_));
    }
    case TypeId::kLong: {
      const int64_t v = std::get<int64_t>(value.value());
      return Literal::Long(v - FloorMod<int64_t>(v, param_));
    }
    case TypeId::kDecimal: {
      const Int128 v = std::get<DecimalValue>(value.value()).unscaled;
      return Literal::Decimal(v - FloorMod<Int128>(v, param_), type.precision(), type.scale());
    }
    case TypeId::kString: {
      const auto& s = std::get<std::string>(value.value());
      return Literal::String(s.substr(0, Utf8Prefix(s, param_)));
    }
    default: {  // binary
      const auto& b = std::get<Bytes>(value.value());
      const size_t n = std::min(b.size(), static_cast<size_t>(param_));
      return Literal::Binary(Bytes(b.begin(), b.begin() + static_cast<std::ptrdiff_t>(n)));
    }
  }
}

}  // namespace databox::iceberg
