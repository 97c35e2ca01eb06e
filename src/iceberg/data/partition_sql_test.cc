// The partition expressions run in DuckDB against the values and hashes the Iceberg spec gives
// (Appendix B's hash examples, the truncate examples of "Truncate Transform Details") and
// against the calendar (transforms of times before 1970 floor toward negative infinity).
#include "iceberg/data/partition_sql.h"

#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <vector>

#include "duck/database.h"

namespace databox::iceberg {
namespace {

struct Case {
  std::string name;  //!< column name
  Type type;
  std::string value_sql;  //!< the value, in DuckDB SQL
};

class PartitionSqlTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto db = duck::Database::Open(":memory:");
    ASSERT_TRUE(db.has_value()) << db.error().ToString();
    db_.emplace(std::move(*db));
    auto conn = duck::Connection::Open(*db_);
    ASSERT_TRUE(conn.has_value()) << conn.error().ToString();
    conn_.emplace(std::move(*conn));
    auto prepared = PreparePartitionFunctions(*conn_);
    ASSERT_TRUE(prepared.has_value()) << prepared.error().ToString();
  }

  //! The partition value DuckDB computes for `transform` of one value.
  std::optional<Literal> Apply(const Case& c, const Transform& transform) {
    const Schema schema(0, {NestedField{1, c.name, false, c.type, std::nullopt}});
    const PartitionField field{1, 1000, c.name + "_p", transform};
    auto expr = PartitionExpression(schema, field);
    EXPECT_TRUE(expr.has_value()) << expr.error().ToString();
    if (!expr) return std::nullopt;
    auto result = conn_->Query("SELECT CAST(" + *expr + " AS VARCHAR) FROM (SELECT " + c.value_sql +
                               " AS \"" + c.name + "\")");
    EXPECT_TRUE(result.has_value()) << result.error().ToString() << " " << *expr;
    if (!result) return std::nullopt;
    std::optional<std::string> text;
    if (!result->IsNull(0, 0)) text = result->GetString(0, 0).value();
    auto value = PartitionValueOf(schema, field, text);
    EXPECT_TRUE(value.has_value()) << value.error().ToString();
    return value ? *value : std::nullopt;
  }

  std::optional<duck::Database> db_;
  std::optional<duck::Connection> conn_;
};

//! bucket[n] of a value whose Appendix B hash is `hash`.
Literal BucketOfHash(int32_t hash, int32_t n) {
  return Literal::Int((hash & std::numeric_limits<int32_t>::max()) % n);
}

TEST_F(PartitionSqlTest, BucketsHashAsAppendixBSays) {
  const std::vector<std::pair<Case, int32_t>> cases = {
      {{"i", Type::Int(), "CAST(34 AS INTEGER)"}, 2017239379},
      {{"l", Type::Long(), "CAST(34 AS BIGINT)"}, 2017239379},
      {{"m", Type::Decimal(9, 2), "CAST(14.20 AS DECIMAL(9, 2))"}, -500754589},
      {{"d", Type::Date(), "DATE '2017-11-16'"}, -653330422},
      {{"t", Type::Time(), "TIME '22:31:08'"}, -662762989},
      {{"ts", Type::Timestamp(), "TIMESTAMP '2017-11-16 22:31:08'"}, -2047944441},
      {{"tz", Type::TimestampTz(), "TIMESTAMPTZ '2017-11-16 14:31:08-08:00'"}, -2047944441},
      {{"s", Type::String(), "'iceberg'"}, 1210000089},
      {{"u", Type::Uuid(), "UUID 'f79c3e09-677c-4bbd-a479-3f349cb785e7'"}, 1488055340},
      {{"b", Type::Binary(), "'\\x00\\x01\\x02\\x03'::BLOB"}, -188683207},
  };
  for (const auto& [c, hash] : cases) {
    for (int32_t n : {1, 7, 1000, std::numeric_limits<int32_t>::max()}) {
      EXPECT_EQ(Apply(c, Transform::Bucket(n)), BucketOfHash(hash, n)) << c.name << " " << n;
    }
  }
  EXPECT_EQ(Apply({"s", Type::String(), "CAST(NULL AS VARCHAR)"}, Transform::Bucket(4)),
            std::nullopt);
}

TEST_F(PartitionSqlTest, TruncateFollowsTheSpecExamples) {
  EXPECT_EQ(Apply({"i", Type::Int(), "CAST(1 AS INTEGER)"}, Transform::Truncate(10)),
            Literal::Int(0));
  EXPECT_EQ(Apply({"i", Type::Int(), "CAST(-1 AS INTEGER)"}, Transform::Truncate(10)),
            Literal::Int(-10));
  EXPECT_EQ(Apply({"l", Type::Long(), "CAST(-1 AS BIGINT)"}, Transform::Truncate(10)),
            Literal::Long(-10));
  EXPECT_EQ(
      Apply({"m", Type::Decimal(9, 2), "CAST(10.65 AS DECIMAL(9, 2))"}, Transform::Truncate(50)),
      Literal::Decimal(1050, 9, 2));
  EXPECT_EQ(
      Apply({"m", Type::Decimal(9, 2), "CAST(-0.05 AS DECIMAL(9, 2))"}, Transform::Truncate(10)),
      Literal::Decimal(-10, 9, 2));
  EXPECT_EQ(Apply({"s", Type::String(), "'iceberg'"}, Transform::Truncate(3)),
            Literal::String("ice"));
  // Code points, not bytes: "é" is two bytes.
  EXPECT_EQ(Apply({"s", Type::String(), "'éa€b'"}, Transform::Truncate(3)), Literal::String("éa€"));
  EXPECT_EQ(Apply({"b", Type::Binary(), "'\\x00\\x01\\x02\\x03'::BLOB"}, Transform::Truncate(3)),
            Literal::Binary({0, 1, 2}));
}

TEST_F(PartitionSqlTest, TimeTransformsCountFrom1970AndFloorBeforeIt) {
  const Case before{"ts", Type::Timestamp(), "TIMESTAMP '1969-12-31 23:59:59.999999'"};
  EXPECT_EQ(Apply(before, Transform::Year()), Literal::Int(-1));
  EXPECT_EQ(Apply(before, Transform::Month()), Literal::Int(-1));
  EXPECT_EQ(Apply(before, Transform::Day()), Literal::Date(-1));
  EXPECT_EQ(Apply(before, Transform::Hour()), Literal::Int(-1));
  // 2017-11-16 22:31:08 UTC: day 17486, hour 419686, month 574, year 47.
  const Case tz{"tz", Type::TimestampTz(), "TIMESTAMPTZ '2017-11-17 00:31:08+02:00'"};
  EXPECT_EQ(Apply(tz, Transform::Day()), Literal::Date(17486));
  EXPECT_EQ(Apply(tz, Transform::Hour()), Literal::Int(419686));
  EXPECT_EQ(Apply(tz, Transform::Month()), Literal::Int(574));
  EXPECT_EQ(Apply(tz, Transform::Year()), Literal::Int(47));
  EXPECT_EQ(Apply({"d", Type::Date(), "DATE '1969-01-01'"}, Transform::Month()), Literal::Int(-12));
}

TEST_F(PartitionSqlTest, TimeTransformsAreExactAtTheEndsOfTheRange) {
  // The last microsecond of 9999 (253402300799999999 us): a floating-point division rounds it
  // into the next hour and day.
  const Case last{"tz", Type::TimestampTz(), "TIMESTAMPTZ '9999-12-31 23:59:59.999999+00'"};
  EXPECT_EQ(Apply(last, Transform::Hour()), Literal::Int(70389527));
  EXPECT_EQ(Apply(last, Transform::Day()), Literal::Date(2932896));
  EXPECT_EQ(Apply(last, Transform::Month()), Literal::Int(96359));
  EXPECT_EQ(Apply(last, Transform::Year()), Literal::Int(8029));
  // The session's time zone does not move a UTC day: 1969-12-31 23:30 UTC is day -1.
  ASSERT_TRUE(conn_->Execute("SET TimeZone = 'Asia/Tokyo'"));
  const Case before{"tz", Type::TimestampTz(), "TIMESTAMPTZ '1969-12-31 23:30:00+00'"};
  EXPECT_EQ(Apply(before, Transform::Day()), Literal::Date(-1));
  EXPECT_EQ(Apply(before, Transform::Hour()), Literal::Int(-1));
  EXPECT_EQ(Apply(before, Transform::Month()), Literal::Int(-1));
  EXPECT_EQ(Apply(before, Transform::Year()), Literal::Int(-1));
}

TEST_F(PartitionSqlTest, IdentityKeepsTheExactValue) {
  EXPECT_EQ(Apply({"tz", Type::TimestampTz(), "TIMESTAMPTZ '1970-01-01 00:00:01.5+00'"},
                  Transform::Identity()),
            Literal::TimestampTz(1'500'000));
  EXPECT_EQ(
      Apply({"m", Type::Decimal(38, 9), "CAST(-2.5 AS DECIMAL(38, 9))"}, Transform::Identity()),
      Literal::Decimal(-2'500'000'000, 38, 9));
  EXPECT_EQ(Apply({"b", Type::Binary(), "'\\x5C\\x00'::BLOB"}, Transform::Identity()),
            Literal::Binary({0x5c, 0}));
  EXPECT_EQ(Apply({"s", Type::String(), "'a/b=c'"}, Transform::Identity()),
            Literal::String("a/b=c"));
  EXPECT_EQ(Apply({"t", Type::Time(), "TIME '00:00:01'"}, Transform::Identity()),
            Literal::Time(1'000'000));
}

}  // namespace
}  // namespace databox::iceberg
