#include "iceberg/data/partition_sql.h"

#include <cctype>
#include <charconv>
#include <limits>

#include "duck/int_function.h"
#include "duck/quote.h"
#include "iceberg/spec/transform.h"

namespace databox::iceberg {
namespace {

constexpr char kBucketFunction[] = "databox_iceberg_bucket";

int32_t Bucket(const duck::IntFunctionValue& value, int32_t n) {
  if (n <= 0) return 0;
  int32_t hash = 0;
  if (const auto* v = std::get_if<int64_t>(&value)) {
    hash = IcebergHash(Literal::Long(*v)).value_or(0);
  } else if (const auto* h = std::get_if<duck::HugeInt>(&value)) {
    // A decimal's hash is that of its unscaled value's minimal bytes, whatever its scale.
    hash = IcebergHash(Literal::Decimal(*h, 38, 0)).value_or(0);
  } else {
    const auto bytes = std::get<std::string_view>(value);
    hash = Murmur3Hash32(std::span(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()));
  }
  return (hash & std::numeric_limits<int32_t>::max()) % n;
}

//! The quoted column path of a (possibly nested) field, e.g. "s"."x".
std::string ColumnOf(const Schema& schema, int32_t id) {
  std::string column;
  const std::string dotted = schema.FindNameById(id);
  size_t start = 0;
  for (size_t dot = dotted.find('.');; dot = dotted.find('.', start)) {
    if (!column.empty()) column += ".";
    column +=
        duck::QuoteIdentifier(dotted.substr(start, dot == std::string::npos ? dot : dot - start));
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  return column;
}

//! A decimal's unscaled value (DuckDB prints every digit of the scale).
std::string Unscaled(const std::string& column) {
  return "CAST(replace(CAST(" + column + " AS VARCHAR), '.', '') AS HUGEINT)";
}

//! Days, or microseconds, since the epoch: the integer form of a date or time value.
std::optional<std::string> EpochForm(const Type& type, const std::string& column) {
  switch (type.id()) {
    case TypeId::kDate:
      return "CAST(date_diff('day', DATE '1970-01-01', " + column + ") AS BIGINT)";
    case TypeId::kTime:
      return "epoch_us(DATE '1970-01-01' + " + column + ")";
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
      return "epoch_us(" + column + ")";
    default:
      return std::nullopt;
  }
}

//! The value of a source column in its exact text form (see the header).
std::string ExactText(const Type& type, const std::string& column) {
  if (auto epoch = EpochForm(type, column)) return *epoch;
  switch (type.id()) {
    case TypeId::kDecimal:
      return Unscaled(column);
    case TypeId::kBinary:
    case TypeId::kFixed:
      return "hex(" + column + ")";
    case TypeId::kUuid:
      return "CAST(" + column + " AS VARCHAR)";
    default:
      return column;
  }
}

//! The argument the bucket function hashes: a BIGINT, HUGEINT or BLOB per Appendix B.
std::string BucketArgument(const Type& type, const std::string& column) {
  if (auto epoch = EpochForm(type, column)) return *epoch;
  switch (type.id()) {
    case TypeId::kInt:
    case TypeId::kLong:
      return "CAST(" + column + " AS BIGINT)";
    case TypeId::kDecimal:
      return Unscaled(column);
    case TypeId::kString:
      return "encode(" + column + ")";
    case TypeId::kUuid:
      return "unhex(replace(CAST(" + column + " AS VARCHAR), '-', ''))";
    default:  // binary, fixed
      return column;
  }
}

constexpr int64_t kMicrosPerHour = 3'600'000'000;
constexpr int64_t kMicrosPerDay = 24 * kMicrosPerHour;

//! floor(v / divisor) in integer arithmetic (DuckDB's // truncates towards zero).
std::string FloorDivide(const std::string& v, int64_t divisor) {
  const std::string d = std::to_string(divisor);
  return "((" + v + " - (((" + v + ") % " + d + " + " + d + ") % " + d + ")) // " + d + ")";
}

Result<std::string> TruncateExpression(const Type& type, const std::string& column, int32_t w) {
  const std::string width = std::to_string(w);
  auto floor_to = [&](const std::string& v) {
    return "(" + v + " - (((" + v + ") % " + width + " + " + width + ") % " + width + "))";
  };
  switch (type.id()) {
    case TypeId::kInt:
    case TypeId::kLong:
      return floor_to(column);
    case TypeId::kDecimal:
      return floor_to(Unscaled(column));
    case TypeId::kString:
      return "left(" + column + ", " + width + ")";  // code points, as the spec says
    case TypeId::kBinary:
      return "hex(" + column + "[1:" + width + "])";
    default:
      return MakeError(ErrorKind::kData,
                       "truncate cannot be applied to a " + type.ToString() + " column");
  }
}

Result<int64_t> WholeNumber(const std::string& text) {
  int64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) {
    return MakeError(ErrorKind::kData, "partition value '" + text + "' is not a whole number");
  }
  return value;
}

Result<Int128> Unscaled128(const std::string& text) {
  Int128 value = 0;
  size_t i = text.starts_with('-') ? 1 : 0;
  if (i == text.size()) return MakeError(ErrorKind::kData, "empty decimal partition value");
  for (; i < text.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(text[i]))) {
      return MakeError(ErrorKind::kData, "partition value '" + text + "' is not a decimal");
    }
    value = value * 10 + (text[i] - '0');
  }
  return text.starts_with('-') ? -value : value;
}

Result<Bytes> Unhex(const std::string& text) {
  Bytes out;
  if (text.size() % 2 != 0) return MakeError(ErrorKind::kData, "odd-length hex partition value");
  for (size_t i = 0; i < text.size(); i += 2) {
    uint8_t byte = 0;
    auto [end, ec] = std::from_chars(text.data() + i, text.data() + i + 2, byte, 16);
    if (ec != std::errc() || end != text.data() + i + 2) {
      return MakeError(ErrorKind::kData, "partition value '" + text + "' is not hex");
    }
    out.push_back(byte);
  }
  return out;
}

//! A value of source type `type` from its exact text form.
Result<Literal> FromExactText(const Type& type, const std::string& text) {
  switch (type.id()) {
    case TypeId::kDate: {
      DATABOX_ASSIGN_OR_RETURN(int64_t days, WholeNumber(text));
      return Literal::Date(static_cast<int32_t>(days));
    }
    case TypeId::kTime: {
      DATABOX_ASSIGN_OR_RETURN(int64_t micros, WholeNumber(text));
      return Literal::Time(micros);
    }
    case TypeId::kTimestamp: {
      DATABOX_ASSIGN_OR_RETURN(int64_t micros, WholeNumber(text));
      return Literal::Timestamp(micros);
    }
    case TypeId::kTimestampTz: {
      DATABOX_ASSIGN_OR_RETURN(int64_t micros, WholeNumber(text));
      return Literal::TimestampTz(micros);
    }
    case TypeId::kDecimal: {
      DATABOX_ASSIGN_OR_RETURN(Int128 unscaled, Unscaled128(text));
      return Literal::Decimal(unscaled, type.precision(), type.scale());
    }
    case TypeId::kBinary: {
      DATABOX_ASSIGN_OR_RETURN(Bytes bytes, Unhex(text));
      return Literal::Binary(std::move(bytes));
    }
    case TypeId::kFixed: {
      DATABOX_ASSIGN_OR_RETURN(Bytes bytes, Unhex(text));
      return Literal::Fixed(std::move(bytes));
    }
    default:
      return Literal::Parse(type, text);
  }
}

}  // namespace

Status PreparePartitionFunctions(duck::Connection& conn) {
  return duck::RegisterIntFunction(conn, kBucketFunction, Bucket);
}

Result<std::string> PartitionExpression(const Schema& schema, const PartitionField& field) {
  const NestedField* source = schema.FindFieldById(field.source_id);
  if (source == nullptr) {
    return MakeError(ErrorKind::kData, "partition field " + field.name + " has no source column " +
                                           std::to_string(field.source_id));
  }
  if (!field.transform.CanTransform(source->type)) {
    return MakeError(ErrorKind::kData, "partition field " + field.name + ": " +
                                           field.transform.ToString() + " cannot be applied to " +
                                           source->type.ToString() + " column " + source->name);
  }
  const Type& type = source->type;
  const std::string column = ColumnOf(schema, field.source_id);
  const bool timestamp = type.id() == TypeId::kTimestamp || type.id() == TypeId::kTimestampTz;
  // A timestamp's UTC wall time, from its epoch microseconds: integer arithmetic, where
  // AT TIME ZONE 'UTC' converts every value through ICU (a day-partitioned load took 14 % more
  // CPU time with it: docs/benchmarks.md, case (j)).
  const std::string utc = timestamp ? "make_timestamp(epoch_us(" + column + "))" : column;
  switch (field.transform.kind()) {
    case TransformKind::kIdentity:
      return ExactText(type, column);
    case TransformKind::kVoid:
      return std::string("CAST(NULL AS INTEGER)");
    case TransformKind::kYear:
      return "(year(" + utc + ") - 1970)";
    case TransformKind::kMonth:
      return "((year(" + utc + ") - 1970) * 12 + month(" + utc + ") - 1)";
    case TransformKind::kDay:
      if (timestamp) return FloorDivide("epoch_us(" + column + ")", kMicrosPerDay);
      return "date_diff('day', DATE '1970-01-01', CAST(" + column + " AS DATE))";
    case TransformKind::kHour:
      return FloorDivide("epoch_us(" + column + ")", kMicrosPerHour);
    case TransformKind::kBucket:
      return std::string(kBucketFunction) + "(" + BucketArgument(type, column) + ", " +
             std::to_string(field.transform.param()) + ")";
    case TransformKind::kTruncate:
      return TruncateExpression(type, column, field.transform.param());
  }
  return MakeError(ErrorKind::kInternal, "unknown partition transform");
}

Result<std::optional<Literal>> PartitionValueOf(const Schema& schema, const PartitionField& field,
                                                const std::optional<std::string>& text) {
  if (!text) return std::optional<Literal>();
  const NestedField* source = schema.FindFieldById(field.source_id);
  if (source == nullptr) {
    return MakeError(ErrorKind::kData, "partition field " + field.name + " has no source column");
  }
  switch (field.transform.kind()) {
    case TransformKind::kIdentity:
    case TransformKind::kTruncate: {
      DATABOX_ASSIGN_OR_RETURN(Literal value, FromExactText(source->type, *text));
      return std::optional<Literal>(std::move(value));
    }
    case TransformKind::kDay: {
      DATABOX_ASSIGN_OR_RETURN(int64_t days, WholeNumber(*text));
      return std::optional<Literal>(Literal::Date(static_cast<int32_t>(days)));
    }
    default: {
      DATABOX_ASSIGN_OR_RETURN(int64_t n, WholeNumber(*text));
      return std::optional<Literal>(Literal::Int(static_cast<int32_t>(n)));
    }
  }
}

std::string PartitionSegment(const std::string& name, const std::optional<Literal>& value) {
  auto escape = [](std::string_view text) {
    static constexpr char kHex[] = "0123456789ABCDEF";
    std::string out;
    for (unsigned char c : text) {
      if (std::isalnum(c) || c == '.' || c == '_' || c == '-') {
        out.push_back(static_cast<char>(c));
      } else {
        out += {'%', kHex[c >> 4], kHex[c & 0xf]};
      }
    }
    return out;
  };
  return escape(name) + "=" + (value ? escape(value->ToString()) : std::string("null"));
}

}  // namespace databox::iceberg
