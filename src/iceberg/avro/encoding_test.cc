#include "iceberg/avro/encoding.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "iceberg/avro/test_util.h"

namespace databox::avro {
namespace {

std::string EncodeLong(int64_t value) {
  std::string out;
  Encoder(&out).WriteLong(value);
  return out;
}

// The zig-zag table from the Avro specification ("Binary Encoding", primitive types).
TEST(EncodingTest, ZigZagMatchesSpecTable) {
  const std::vector<std::pair<int64_t, std::string>> cases = {
      {0, "00"}, {-1, "01"}, {1, "02"}, {-2, "03"}, {2, "04"}, {-64, "7f"}, {64, "80 01"},
  };
  for (const auto& [value, hex] : cases) EXPECT_EQ(Hex(EncodeLong(value)), hex) << value;
}

TEST(EncodingTest, LongExtremesRoundTrip) {
  for (int64_t value : {std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max(),
                        int64_t{-8193}, int64_t{1} << 35}) {
    std::string bytes = EncodeLong(value);
    Decoder d(bytes);
    auto decoded = d.ReadLong();
    ASSERT_TRUE(decoded) << decoded.error().ToString();
    EXPECT_EQ(*decoded, value);
    EXPECT_TRUE(d.AtEnd());
  }
  EXPECT_EQ(Hex(EncodeLong(std::numeric_limits<int64_t>::max())), "fe ff ff ff ff ff ff ff ff 01");
}

// Spec: the string "foo" is encoded as 06 66 6f 6f.
TEST(EncodingTest, StringFooMatchesSpec) {
  std::string out;
  Encoder(&out).WriteString("foo");
  EXPECT_EQ(Hex(out), "06 66 6f 6f");
}

// Spec: booleans are one byte; floats/doubles are little-endian IEEE 754.
TEST(EncodingTest, BooleanFloatDouble) {
  std::string out;
  Encoder e(&out);
  e.WriteBoolean(true);
  e.WriteBoolean(false);
  e.WriteFloat(1.0f);
  e.WriteDouble(-2.0);
  EXPECT_EQ(Hex(out), "01 00 00 00 80 3f 00 00 00 00 00 00 00 c0");
  Decoder d(out);
  EXPECT_EQ(d.ReadBoolean().value(), true);
  EXPECT_EQ(d.ReadBoolean().value(), false);
  EXPECT_EQ(d.ReadFloat().value(), 1.0f);
  EXPECT_EQ(d.ReadDouble().value(), -2.0);
}

// Spec: an array of longs {3, 27} is 04 06 36 00 (count 2, items, end block).
TEST(EncodingTest, ArrayBlocksMatchSpec) {
  std::string out;
  Encoder e(&out);
  e.WriteBlockCount(2);
  e.WriteLong(3);
  e.WriteLong(27);
  e.WriteBlockEnd();
  EXPECT_EQ(Hex(out), "04 06 36 00");
}

TEST(EncodingTest, NegativeBlockCountCarriesByteSize) {
  // count -2 (zig-zag 03), byte size 2 (04), items 3 and 27, end.
  std::string bytes("\x03\x04\x06\x36\x00", 5);
  Decoder d(bytes);
  EXPECT_EQ(d.ReadBlockCount().value(), 2);
  EXPECT_EQ(d.ReadLong().value(), 3);
  EXPECT_EQ(d.ReadLong().value(), 27);
  EXPECT_EQ(d.ReadBlockCount().value(), 0);
}

TEST(EncodingTest, TruncatedInputIsDataError) {
  Decoder varint(std::string_view("\x80", 1));
  auto v = varint.ReadLong();
  ASSERT_FALSE(v);
  EXPECT_EQ(v.error().kind, ErrorKind::kData);

  Decoder string_data(
      std::string_view("\x06"
                       "fo",
                       3));
  auto s = string_data.ReadString();
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().kind, ErrorKind::kData);

  Decoder float_data(std::string_view("\x00\x00", 2));
  EXPECT_FALSE(float_data.ReadFloat());
}

TEST(EncodingTest, CorruptLengthsAreRejectedWithoutAllocating) {
  // A length of 2^62 must fail on bounds, not attempt an allocation.
  std::string huge;
  Encoder(&huge).WriteLong(int64_t{1} << 62);
  Decoder d(huge);
  auto bytes = d.ReadBytes();
  ASSERT_FALSE(bytes);
  EXPECT_EQ(bytes.error().kind, ErrorKind::kData);

  Decoder negative(std::string_view("\x01", 1));  // length -1
  EXPECT_FALSE(negative.ReadBytes());

  const std::string eleven_continuations(11, '\xff');
  Decoder overlong(eleven_continuations);
  EXPECT_FALSE(overlong.ReadLong());

  std::string big_int = EncodeLong(int64_t{1} << 40);
  Decoder int_decoder(big_int);
  EXPECT_FALSE(int_decoder.ReadInt());

  Decoder bad_bool(std::string_view("\x02", 1));
  EXPECT_FALSE(bad_bool.ReadBoolean());
}

}  // namespace
}  // namespace databox::avro
