// Partition transforms (table spec "Partition Transforms") and the 32-bit hash of
// Appendix B used by bucket[N].
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "common/error.h"
#include "iceberg/spec/literal.h"
#include "iceberg/spec/types.h"

namespace databox::iceberg {

enum class TransformKind { kIdentity, kYear, kMonth, kDay, kHour, kBucket, kTruncate, kVoid };

class Transform {
 public:
  static Transform Identity() { return Transform(TransformKind::kIdentity, 0); }
  static Transform Year() { return Transform(TransformKind::kYear, 0); }
  static Transform Month() { return Transform(TransformKind::kMonth, 0); }
  static Transform Day() { return Transform(TransformKind::kDay, 0); }
  static Transform Hour() { return Transform(TransformKind::kHour, 0); }
  static Transform Bucket(int32_t n) { return Transform(TransformKind::kBucket, n); }
  static Transform Truncate(int32_t width) { return Transform(TransformKind::kTruncate, width); }
  static Transform Void() { return Transform(TransformKind::kVoid, 0); }

  //! "identity", "year", ..., "bucket[16]", "truncate[10]", "void".
  static Result<Transform> Parse(std::string_view text);
  std::string ToString() const;

  TransformKind kind() const { return kind_; }
  int32_t param() const { return param_; }  //!< N of bucket[N], W of truncate[W]

  //! Whether this transform accepts values of `source` (e.g. hour needs time-of-day types).
  bool CanTransform(const Type& source) const;
  //! Partition value type: identity/truncate/void keep the source type; bucket, year,
  //! month, hour give int; day gives date (as Iceberg Java and pyiceberg do).
  Result<Type> ResultType(const Type& source) const;
  //! Whether every result is null (the void transform); Apply fails for it.
  bool produces_null() const { return kind_ == TransformKind::kVoid; }
  //! Applies the transform. Year/month/day/hour count from 1970 and floor toward -inf;
  //! truncate of a string keeps W code points. kInternal for void (see produces_null).
  Result<Literal> Apply(const Literal& value) const;

  friend bool operator==(const Transform&, const Transform&) = default;

 private:
  Transform(TransformKind kind, int32_t param) : kind_(kind), param_(param) {}

  TransformKind kind_;
  int32_t param_;
};

//! MurmurHash3 x86 32-bit, seed 0, of the bytes.
int32_t Murmur3Hash32(std::span<const uint8_t> bytes);
//! The Appendix B hash of a value (ints/longs/dates/times as 8-byte LE long, decimals as
//! minimal big-endian unscaled bytes, strings UTF-8, uuid 16 bytes, floats as double bits).
Result<int32_t> IcebergHash(const Literal& value);

}  // namespace databox::iceberg
