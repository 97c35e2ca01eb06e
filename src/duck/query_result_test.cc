#include "duck/query_result.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "duck/test_support.h"

namespace databox::duck {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

class QueryResultTest : public ::testing::Test {
 protected:
  QueryResult Run(const std::string& sql) {
    auto r = mem_.conn.Query(sql);
    EXPECT_TRUE(r.has_value()) << (r ? "" : r.error().ToString());
    return std::move(*r);
  }
  testing::MemoryDb mem_ = testing::OpenMemoryDb();
};

TEST_F(QueryResultTest, TypedValuesAndNulls) {
  QueryResult r = Run(
      "SELECT * FROM (VALUES (1::BIGINT, 'a', 1.5::DOUBLE, true, 7::TINYINT), "
      "(NULL, NULL, NULL, NULL, NULL), (-3, 'ünï''\"', -0.25, false, -8)) t(i, s, d, b, small)");
  ASSERT_EQ(r.column_count(), 5u);
  ASSERT_EQ(r.row_count(), 3u);
  EXPECT_THAT(r.column_names(), ElementsAre("i", "s", "d", "b", "small"));
  EXPECT_EQ(r.column_type(0), TypeId::kBigInt);
  EXPECT_EQ(r.column_type(1), TypeId::kVarchar);
  EXPECT_EQ(r.column_type(2), TypeId::kDouble);
  EXPECT_EQ(r.column_type(3), TypeId::kBoolean);
  EXPECT_EQ(r.column_type(4), TypeId::kTinyInt);

  EXPECT_EQ(r.GetInt64(0, 0).value(), 1);
  EXPECT_EQ(r.GetString(1, 0).value(), "a");
  EXPECT_EQ(r.GetDouble(2, 0).value(), 1.5);
  EXPECT_EQ(r.GetBool(3, 0).value(), true);
  EXPECT_EQ(r.GetInt64(4, 0).value(), 7);

  for (uint64_t c = 0; c < r.column_count(); ++c) {
    EXPECT_TRUE(r.IsNull(c, 1)) << c;
    EXPECT_FALSE(r.IsNull(c, 0)) << c;
  }
  auto null_read = r.GetInt64(0, 1);
  ASSERT_FALSE(null_read.has_value());
  EXPECT_THAT(null_read.error().message, HasSubstr("column i row 1 is NULL"));

  EXPECT_EQ(r.GetInt64(0, 2).value(), -3);
  EXPECT_EQ(r.GetString(1, 2).value(), "ünï'\"");
  EXPECT_EQ(r.GetDouble(2, 2).value(), -0.25);
  EXPECT_EQ(r.GetBool(3, 2).value(), false);
  EXPECT_EQ(r.GetInt64(4, 2).value(), -8);
  EXPECT_EQ(r.GetDouble(0, 2).value(), -3.0);  // integers widen to double
}

TEST_F(QueryResultTest, WrongTypeAndOutOfRangeAreErrors) {
  QueryResult r = Run("SELECT 'x' AS s, 1 AS i");
  auto as_int = r.GetInt64(0, 0);
  ASSERT_FALSE(as_int.has_value());
  EXPECT_EQ(as_int.error().kind, ErrorKind::kData);
  EXPECT_THAT(as_int.error().message, HasSubstr("VARCHAR"));
  EXPECT_FALSE(r.GetBool(1, 0).has_value());
  EXPECT_FALSE(r.GetString(1, 0).has_value());
  EXPECT_FALSE(r.GetInt64(0, 1).has_value());
  EXPECT_FALSE(r.GetInt64(5, 0).has_value());
  EXPECT_TRUE(r.IsNull(0, 9));
  EXPECT_EQ(r.column_type(9), TypeId::kInvalid);
  EXPECT_EQ(r.ColumnIndex("i").value(), 1u);
  EXPECT_EQ(r.ColumnIndex("nope").error().kind, ErrorKind::kNotFound);
}

TEST_F(QueryResultTest, UBigIntOverflowIsReported) {
  QueryResult r =
      Run("SELECT 18446744073709551615::UBIGINT, 5::UBIGINT, "
          "170141183460469231731687303715884105727::HUGEINT, (-2)::HUGEINT");
  EXPECT_FALSE(r.GetInt64(0, 0).has_value());
  EXPECT_EQ(r.GetInt64(1, 0).value(), 5);
  EXPECT_FALSE(r.GetInt64(2, 0).has_value());
  EXPECT_EQ(r.GetInt64(3, 0).value(), -2);
}

TEST_F(QueryResultTest, GetAsStringMatchesDuckDbVarcharCast) {
  // Every expression is read both natively (GetAsString) and as DuckDB's own ::VARCHAR, which
  // is the oracle: the two must agree for all types.
  const std::vector<std::string> exprs = {
      "42::INTEGER",
      "3.25::DECIMAL(10,2)",
      "123456789012.345678::DECIMAL(38,6)",
      "-7.5::DECIMAL(4,1)",
      "DATE '2024-02-29'",
      "TIMESTAMP '2024-01-02 03:04:05.123456'",
      "TIMESTAMPTZ '2024-01-02 03:04:05+00'",
      "TIME '12:34:56'",
      "INTERVAL 3 DAY + INTERVAL 5 HOUR",
      "'8c3f2a7e-1b2c-4d5e-8f90-0123456789ab'::UUID",
      "'\\xAA\\x00'::BLOB",
      "{'a': 1, 'b': [1, NULL, 3], 'c': {'d': 'x'}}",
      "[[1, 2], [], NULL]",
      "MAP {'k1': 10, 'k2': NULL}",
      "[1, 2, 3]::INTEGER[3]",
      "'b'::ENUM('a', 'b', 'c')",
      "1.5::FLOAT",
      "true",
      "170141183460469231731687303715884105727::HUGEINT",
      "(-1)::HUGEINT",
  };
  for (const auto& e : exprs) {
    QueryResult r = Run("SELECT " + e + ", (" + e + ")::VARCHAR");
    auto native = r.GetAsString(0, 0);
    ASSERT_TRUE(native.has_value()) << e << ": " << native.error().ToString();
    EXPECT_EQ(*native, r.GetString(1, 0).value()) << e;
  }
}

TEST_F(QueryResultTest, DecimalAndEnumTypedAccess) {
  QueryResult r = Run("SELECT 3.25::DECIMAL(10,2), 'b'::ENUM('a', 'b'), '\\x01\\x02'::BLOB");
  EXPECT_DOUBLE_EQ(r.GetDouble(0, 0).value(), 3.25);
  EXPECT_EQ(r.GetString(1, 0).value(), "b");
  EXPECT_EQ(r.GetString(2, 0).value(), std::string("\x01\x02", 2));
}

TEST_F(QueryResultTest, ManyChunksAndIteration) {
  // More rows than one DuckDB vector (2048) so several chunks are read.
  QueryResult r =
      Run("SELECT i, CASE WHEN i % 7 = 0 THEN NULL ELSE i * 2 END AS j FROM range(10000) t(i)");
  ASSERT_EQ(r.row_count(), 10000u);
  int64_t sum = 0;
  uint64_t nulls = 0;
  uint64_t seen = 0;
  for (RowRef row : r) {
    EXPECT_EQ(row.GetInt64(0).value(), static_cast<int64_t>(row.index()));
    if (row.IsNull(1)) {
      ++nulls;
    } else {
      sum += row.GetInt64(1).value();
    }
    ++seen;
  }
  EXPECT_EQ(seen, 10000u);
  int64_t want_sum = 0;
  uint64_t want_nulls = 0;
  for (int64_t i = 0; i < 10000; ++i) {
    if (i % 7 == 0) {
      ++want_nulls;
    } else {
      want_sum += i * 2;
    }
  }
  EXPECT_EQ(sum, want_sum);
  EXPECT_EQ(nulls, want_nulls);
  EXPECT_EQ(r.GetInt64(0, 9999).value(), 9999);
}

TEST_F(QueryResultTest, NestedValuesCanBeWalked) {
  QueryResult r = Run("SELECT MAP {'a': [1, 2], 'b': []} AS m, {'x': 1, 'y': 'z'} AS s");
  auto m = r.GetValue(0, 0);
  ASSERT_TRUE(m.has_value()) << m.error().ToString();
  ASSERT_EQ(m->MapSize(), 2u);
  EXPECT_EQ(m->MapKey(0)->ToString(), "a");
  auto list = m->MapValue(0);
  ASSERT_TRUE(list.has_value());
  ASSERT_EQ(list->ListSize(), 2u);
  EXPECT_EQ(list->ListChild(1)->ToString(), "2");
  EXPECT_EQ(m->MapValue(1)->ListSize(), 0u);
  auto s = r.GetValue(1, 0);
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->StructChild(1)->ToString(), "z");
}

TEST_F(QueryResultTest, EmptyResultKeepsColumns) {
  QueryResult r = Run("SELECT 1 AS a, 'x' AS b WHERE false");
  EXPECT_EQ(r.row_count(), 0u);
  EXPECT_THAT(r.column_names(), ElementsAre("a", "b"));
  EXPECT_EQ(r.begin(), r.end());
}

}  // namespace
}  // namespace databox::duck
