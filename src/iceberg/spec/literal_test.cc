#include "iceberg/spec/literal.h"

#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>

namespace databox::iceberg {
namespace {

using nlohmann::json;

Bytes B(std::initializer_list<int> v) {
  Bytes out;
  for (int x : v) out.push_back(static_cast<uint8_t>(x));
  return out;
}

TEST(LiteralTest, BinaryFormMatchesAppendixD) {
  EXPECT_EQ(Literal::Boolean(true).ToBytes(), B({1}));
  EXPECT_EQ(Literal::Int(1).ToBytes(), B({1, 0, 0, 0}));
  EXPECT_EQ(Literal::Int(-2).ToBytes(), B({0xfe, 0xff, 0xff, 0xff}));
  EXPECT_EQ(Literal::Long(34).ToBytes(), B({34, 0, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(Literal::Float(1.0f).ToBytes(), B({0x00, 0x00, 0x80, 0x3f}));
  EXPECT_EQ(Literal::Double(1.0).ToBytes(), B({0, 0, 0, 0, 0, 0, 0xf0, 0x3f}));
  EXPECT_EQ(Literal::String("iceberg").ToBytes(), B({'i', 'c', 'e', 'b', 'e', 'r', 'g'}));
  // Decimal: unscaled big-endian two's complement, minimal bytes.
  EXPECT_EQ(Literal::Decimal(1420, 9, 2).ToBytes(), B({0x05, 0x8c}));
  EXPECT_EQ(Literal::Decimal(0, 9, 2).ToBytes(), B({0x00}));
  EXPECT_EQ(Literal::Decimal(127, 9, 2).ToBytes(), B({0x7f}));
  EXPECT_EQ(Literal::Decimal(128, 9, 2).ToBytes(), B({0x00, 0x80}));
  EXPECT_EQ(Literal::Decimal(-1, 9, 2).ToBytes(), B({0xff}));
  EXPECT_EQ(Literal::Decimal(-129, 9, 2).ToBytes(), B({0xff, 0x7f}));
}

TEST(LiteralTest, BinaryRoundTripForEveryPrimitive) {
  const Literal values[] = {
      Literal::Boolean(false),
      Literal::Int(-7),
      Literal::Long(1LL << 40),
      Literal::Float(2.5f),
      Literal::Double(-0.125),
      Literal::Decimal(-123456789, 20, 3),
      Literal::Date(17486),
      Literal::Time(81068000000),
      Literal::Timestamp(1510871468000001),
      Literal::TimestampTz(-1),
      Literal::String("grüße"),
      Literal::Uuid(*ParseUuid("f79c3e09-677c-4bbd-a479-3f349cb785e7")),
      Literal::Fixed(B({0, 1, 2})),
      Literal::Binary(B({})),
  };
  for (const auto& v : values) {
    auto back = Literal::FromBytes(v.type(), v.ToBytes());
    ASSERT_TRUE(back) << v.ToString() << ": " << back.error().ToString();
    EXPECT_EQ(*back, v) << v.type().ToString();
  }
}

TEST(LiteralTest, FromBytesReadsPromotedBoundsAndRejectsWrongSizes) {
  auto promoted = Literal::FromBytes(Type::Long(), B({0xfe, 0xff, 0xff, 0xff}));
  ASSERT_TRUE(promoted);
  EXPECT_EQ(*promoted, Literal::Long(-2));
  EXPECT_FALSE(Literal::FromBytes(Type::Int(), B({1, 0})));
  EXPECT_FALSE(Literal::FromBytes(Type::Uuid(), B({1, 2, 3})));
  EXPECT_FALSE(Literal::FromBytes(Type::Fixed(4), B({1, 2, 3})));
}

TEST(LiteralTest, ParsesDuckDbStatText) {
  EXPECT_EQ(*Literal::Parse(Type::Timestamp(), "2026-02-08 00:00:00"),
            Literal::Timestamp(int64_t{DaysFromCivil(2026, 2, 8)} * 86400000000));
  EXPECT_EQ(*Literal::Parse(Type::Timestamp(), "2017-11-16 22:31:08.000001"),
            Literal::Timestamp(1510871468000001));
  EXPECT_EQ(*Literal::Parse(Type::TimestampTz(), "2026-02-08 00:00:00+00"),
            Literal::TimestampTz(int64_t{DaysFromCivil(2026, 2, 8)} * 86400000000));
  // The spec's example: 14:31:08-08:00 is 22:31:08 UTC.
  EXPECT_EQ(*Literal::Parse(Type::TimestampTz(), "2017-11-16 14:31:08-08"),
            Literal::TimestampTz(1510871468000000));
  EXPECT_EQ(*Literal::Parse(Type::TimestampTz(), "2017-11-16T14:31:08-08:00"),
            Literal::TimestampTz(1510871468000000));
  EXPECT_EQ(*Literal::Parse(Type::Date(), "2017-11-16"), Literal::Date(17486));
  EXPECT_EQ(*Literal::Parse(Type::Date(), "1969-12-31"), Literal::Date(-1));
  EXPECT_EQ(*Literal::Parse(Type::Time(), "22:31:08"), Literal::Time(81068000000));
  EXPECT_EQ(*Literal::Parse(Type::Double(), "1.5"), Literal::Double(1.5));
  EXPECT_TRUE(std::isinf(std::get<double>(Literal::Parse(Type::Double(), "inf")->value())));
  EXPECT_EQ(*Literal::Parse(Type::Boolean(), "true"), Literal::Boolean(true));
  EXPECT_EQ(*Literal::Parse(Type::Long(), "-42"), Literal::Long(-42));
  EXPECT_EQ(*Literal::Parse(Type::Decimal(9, 2), "14.20"), Literal::Decimal(1420, 9, 2));
  EXPECT_EQ(*Literal::Parse(Type::Decimal(9, 2), "-3.5"), Literal::Decimal(-350, 9, 2));
  EXPECT_EQ(*Literal::Parse(Type::Binary(), "ab\\x00\\xFF"),
            Literal::Binary(B({'a', 'b', 0, 0xff})));
  EXPECT_EQ(*Literal::Parse(Type::String(), "2026-02-08"), Literal::String("2026-02-08"));

  EXPECT_FALSE(Literal::Parse(Type::Int(), "1.5"));
  EXPECT_FALSE(Literal::Parse(Type::Int(), "99999999999"));
  EXPECT_FALSE(Literal::Parse(Type::Date(), "2026-02-30"));
  EXPECT_FALSE(Literal::Parse(Type::Timestamp(), "2026-02-08 00:00:00+05"));
  EXPECT_FALSE(Literal::Parse(Type::Decimal(3, 2), "14.20"));
  EXPECT_FALSE(Literal::Parse(Type::Decimal(9, 2), "1.234"));
  EXPECT_EQ(Literal::Parse(Type::Boolean(), "yes").error().kind, ErrorKind::kData);
}

TEST(LiteralTest, JsonSingleValueForm) {
  EXPECT_EQ(Literal::Int(34).ToJson(), json(34));
  EXPECT_EQ(Literal::Decimal(1420, 9, 2).ToJson(), json("14.20"));
  EXPECT_EQ(Literal::Decimal(-5, 9, 2).ToJson(), json("-0.05"));
  EXPECT_EQ(Literal::Date(17486).ToJson(), json("2017-11-16"));
  EXPECT_EQ(Literal::Time(81068123456).ToJson(), json("22:31:08.123456"));
  EXPECT_EQ(Literal::Timestamp(1510871468123456).ToJson(), json("2017-11-16T22:31:08.123456"));
  EXPECT_EQ(Literal::TimestampTz(1510871468123456).ToJson(),
            json("2017-11-16T22:31:08.123456+00:00"));
  EXPECT_EQ(Literal::Timestamp(-1).ToJson(), json("1969-12-31T23:59:59.999999"));
  EXPECT_EQ(Literal::Binary(B({0, 0, 0xff, 0})).ToJson(), json("0000FF00"));
  EXPECT_EQ(Literal::Uuid(*ParseUuid("f79c3e09-677c-4bbd-a479-3f349cb785e7")).ToJson(),
            json("f79c3e09-677c-4bbd-a479-3f349cb785e7"));
  const Literal values[] = {Literal::Boolean(true),  Literal::Long(-9),
                            Literal::Double(2.25),   Literal::Decimal(1420, 9, 2),
                            Literal::Date(-400),     Literal::Timestamp(1510871468123456),
                            Literal::TimestampTz(5), Literal::Binary(B({1, 0xab})),
                            Literal::Fixed(B({7}))};
  for (const auto& v : values) {
    auto back = Literal::FromJson(v.type(), v.ToJson());
    ASSERT_TRUE(back) << back.error().ToString();
    EXPECT_EQ(*back, v) << v.ToJson().dump();
  }
  EXPECT_FALSE(Literal::FromJson(Type::Int(), json("34")));
}

TEST(LiteralTest, CompareOrdersValuesOfOneType) {
  EXPECT_EQ(*Literal::Compare(Literal::Long(1), Literal::Long(2)), -1);
  EXPECT_EQ(*Literal::Compare(Literal::String("b"), Literal::String("ab")), 1);
  EXPECT_EQ(*Literal::Compare(Literal::String("\xc3\xa9"), Literal::String("z")), 1);  // é after z
  EXPECT_FALSE(Literal::Compare(Literal::Long(1), Literal::Int(1)));
}

}  // namespace
}  // namespace databox::iceberg
