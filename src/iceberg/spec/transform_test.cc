#include "iceberg/spec/transform.h"

#include <gtest/gtest.h>

namespace databox::iceberg {
namespace {

TEST(Murmur3Test, SpecAppendixBHashValues) {
  EXPECT_EQ(*IcebergHash(Literal::Int(34)), 2017239379);
  EXPECT_EQ(*IcebergHash(Literal::Long(34)), 2017239379);
  EXPECT_EQ(*IcebergHash(Literal::Decimal(1420, 9, 2)), -500754589);
  EXPECT_EQ(*IcebergHash(*Literal::Parse(Type::Date(), "2017-11-16")), -653330422);
  EXPECT_EQ(*IcebergHash(*Literal::Parse(Type::Time(), "22:31:08")), -662762989);
  EXPECT_EQ(*IcebergHash(*Literal::Parse(Type::Timestamp(), "2017-11-16T22:31:08")), -2047944441);
  EXPECT_EQ(*IcebergHash(*Literal::Parse(Type::Timestamp(), "2017-11-16T22:31:08.000001")),
            -1207196810);
  EXPECT_EQ(*IcebergHash(*Literal::Parse(Type::TimestampTz(), "2017-11-16T14:31:08-08:00")),
            -2047944441);
  EXPECT_EQ(*IcebergHash(Literal::String("iceberg")), 1210000089);
  EXPECT_EQ(*IcebergHash(Literal::Uuid(*ParseUuid("f79c3e09-677c-4bbd-a479-3f349cb785e7"))),
            1488055340);
  EXPECT_EQ(*IcebergHash(Literal::Fixed({0, 1, 2, 3})), -188683207);
  EXPECT_EQ(*IcebergHash(Literal::Binary({0, 1, 2, 3})), -188683207);
  EXPECT_FALSE(IcebergHash(Literal::Double(1.0)));
}

TEST(TransformTest, ParseAndPrint) {
  for (const char* text :
       {"identity", "year", "month", "day", "hour", "bucket[16]", "truncate[10]", "void"}) {
    auto t = Transform::Parse(text);
    ASSERT_TRUE(t) << text;
    EXPECT_EQ(t->ToString(), text);
  }
  EXPECT_EQ(Transform::Parse("bucket[16]")->param(), 16);
  EXPECT_FALSE(Transform::Parse("bucket[0]"));
  EXPECT_FALSE(Transform::Parse("bucket[x]"));
  EXPECT_FALSE(Transform::Parse("days"));
}

TEST(TransformTest, ResultTypes) {
  EXPECT_EQ(*Transform::Day().ResultType(Type::Timestamp()), Type::Date());
  EXPECT_EQ(*Transform::Hour().ResultType(Type::TimestampTz()), Type::Int());
  EXPECT_EQ(*Transform::Bucket(4).ResultType(Type::String()), Type::Int());
  EXPECT_EQ(*Transform::Truncate(4).ResultType(Type::Decimal(9, 2)), Type::Decimal(9, 2));
  EXPECT_EQ(*Transform::Identity().ResultType(Type::Uuid()), Type::Uuid());
  EXPECT_FALSE(Transform::Hour().ResultType(Type::Date()));
  EXPECT_FALSE(Transform::Truncate(2).ResultType(Type::Uuid()));
  EXPECT_FALSE(Transform::Bucket(2).ResultType(Type::Double()));
}

TEST(TransformTest, ApplyFollowsSpecExamples) {
  // bucket: (hash & Integer.MAX_VALUE) % N; hash(34) = 2017239379.
  EXPECT_EQ(*Transform::Bucket(16).Apply(Literal::Int(34)), Literal::Int(2017239379 % 16));
  // truncate examples from the spec table.
  EXPECT_EQ(*Transform::Truncate(10).Apply(Literal::Int(1)), Literal::Int(0));
  EXPECT_EQ(*Transform::Truncate(10).Apply(Literal::Int(-1)), Literal::Int(-10));
  EXPECT_EQ(*Transform::Truncate(10).Apply(Literal::Long(-1)), Literal::Long(-10));
  EXPECT_EQ(*Transform::Truncate(50).Apply(Literal::Decimal(1065, 9, 2)),
            Literal::Decimal(1050, 9, 2));
  EXPECT_EQ(*Transform::Truncate(3).Apply(Literal::String("iceberg")), Literal::String("ice"));
  EXPECT_EQ(*Transform::Truncate(2).Apply(Literal::String("\xc3\xa9t\xc3\xa9")),
            Literal::String("\xc3\xa9t"));
  EXPECT_EQ(*Transform::Truncate(2).Apply(Literal::Binary({1, 2, 3})), Literal::Binary({1, 2}));
  // time transforms count from 1970 and floor toward negative infinity.
  const Literal ts = *Literal::Parse(Type::Timestamp(), "2017-11-16 22:31:08");
  EXPECT_EQ(*Transform::Year().Apply(ts), Literal::Int(47));
  EXPECT_EQ(*Transform::Month().Apply(ts), Literal::Int(47 * 12 + 10));
  EXPECT_EQ(*Transform::Day().Apply(ts), Literal::Date(17486));
  EXPECT_EQ(*Transform::Hour().Apply(ts), Literal::Int(17486 * 24 + 22));
  EXPECT_EQ(*Transform::Day().Apply(Literal::Timestamp(-1)), Literal::Date(-1));
  EXPECT_EQ(*Transform::Hour().Apply(Literal::TimestampTz(-1)), Literal::Int(-1));
  EXPECT_EQ(*Transform::Year().Apply(Literal::Date(-1)), Literal::Int(-1));
  EXPECT_EQ(*Transform::Month().Apply(Literal::Date(-1)), Literal::Int(-1));
  EXPECT_EQ(*Transform::Identity().Apply(Literal::String("x")), Literal::String("x"));
  EXPECT_FALSE(Transform::Void().Apply(Literal::Int(1)));
  EXPECT_TRUE(Transform::Void().produces_null());
  EXPECT_FALSE(Transform::Hour().Apply(Literal::Date(1)));
}

}  // namespace
}  // namespace databox::iceberg
