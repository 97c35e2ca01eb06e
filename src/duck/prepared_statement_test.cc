#include "duck/prepared_statement.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "duck/test_support.h"

namespace databox::duck {
namespace {

using ::testing::HasSubstr;

TEST(PreparedStatementTest, BindsEveryKindAndReadsBack) {
  auto mem = testing::OpenMemoryDb();
  auto stmt = mem.conn.Prepare(
      "SELECT $1::INTEGER IS NULL, $2, $3 + 1, $4 * 2, $5 || '!', octet_length($6), $6");
  ASSERT_TRUE(stmt.has_value()) << stmt.error().ToString();
  EXPECT_EQ(stmt->parameter_count(), 6u);
  const std::string blob("\x00\xff\x01", 3);
  ASSERT_TRUE(stmt->BindNull(1));
  ASSERT_TRUE(stmt->BindBool(2, true));
  ASSERT_TRUE(stmt->BindInt64(3, 41));
  ASSERT_TRUE(stmt->BindDouble(4, 0.25));
  ASSERT_TRUE(stmt->BindString(5, "x\"; DROP TABLE y; --"));
  ASSERT_TRUE(stmt->BindBlob(6, blob));
  auto r = stmt->Query();
  ASSERT_TRUE(r.has_value()) << r.error().ToString();
  EXPECT_EQ(r->GetBool(0, 0).value(), true);
  EXPECT_EQ(r->GetBool(1, 0).value(), true);
  EXPECT_EQ(r->GetInt64(2, 0).value(), 42);
  EXPECT_EQ(r->GetDouble(3, 0).value(), 0.5);
  EXPECT_EQ(r->GetString(4, 0).value(), "x\"; DROP TABLE y; --!");
  EXPECT_EQ(r->GetInt64(5, 0).value(), 3);
  EXPECT_EQ(r->column_type(6), TypeId::kBlob);
  EXPECT_EQ(r->GetString(6, 0).value(), blob);
}

TEST(PreparedStatementTest, ReusedWithNewBindings) {
  auto mem = testing::OpenMemoryDb();
  ASSERT_TRUE(mem.conn.Execute("CREATE TABLE kv(k VARCHAR, v BIGINT)"));
  auto insert = mem.conn.Prepare("INSERT INTO kv VALUES (?, ?)");
  ASSERT_TRUE(insert.has_value());
  for (int64_t i = 0; i < 5; ++i) {
    std::vector<Parameter> params = {std::string("k") + std::to_string(i), i * i};
    ASSERT_TRUE(insert->BindAll(params));
    ASSERT_TRUE(insert->Execute());
  }
  std::vector<Parameter> with_null = {std::string("null"), nullptr};
  ASSERT_TRUE(insert->BindAll(with_null));
  ASSERT_TRUE(insert->Execute());
  auto r = mem.conn.Query("SELECT count(*), sum(v), count(v) FROM kv");
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->GetInt64(0, 0).value(), 6);
  EXPECT_EQ(r->GetDouble(1, 0).value(), 0 + 1 + 4 + 9 + 16);
  EXPECT_EQ(r->GetInt64(2, 0).value(), 5);
}

TEST(PreparedStatementTest, ErrorsCarryReasons) {
  auto mem = testing::OpenMemoryDb();
  auto bad = mem.conn.Prepare("SELECT * FROM missing_table WHERE x = ?");
  ASSERT_FALSE(bad.has_value());
  EXPECT_THAT(bad.error().message, HasSubstr("missing_table"));

  auto stmt = mem.conn.Prepare("SELECT ?::INTEGER");
  ASSERT_TRUE(stmt.has_value());
  auto out_of_range = stmt->BindInt64(2, 1);
  ASSERT_FALSE(out_of_range.has_value());
  EXPECT_THAT(out_of_range.error().message, HasSubstr("parameter 2"));
  std::vector<Parameter> two = {int64_t{1}, int64_t{2}};
  EXPECT_FALSE(stmt->BindAll(two).has_value());

  ASSERT_TRUE(stmt->BindString(1, "not a number"));
  auto run = stmt->Query();
  ASSERT_FALSE(run.has_value());
  EXPECT_THAT(run.error().message, HasSubstr("not a number"));
}

TEST(PreparedStatementTest, QueryWithoutSpinningReadsTheSameRowsAndErrors) {
  auto mem = testing::OpenMemoryDb();
  ASSERT_TRUE(mem.conn.Execute("SET threads = 2"));
  const std::string sql =
      "SELECT count(*), sum(i)::BIGINT FROM range(?) t(i) WHERE i % 7 <> 3";  // parallel scan
  auto statement = mem.conn.Prepare(sql);
  ASSERT_TRUE(statement) << statement.error().message;
  ASSERT_TRUE(statement->BindInt64(1, 5'000'000));
  auto polled = statement->QueryWithoutSpinning();
  ASSERT_TRUE(polled) << polled.error().message;
  auto plain = statement->Query();
  ASSERT_TRUE(plain) << plain.error().message;
  EXPECT_EQ(polled->GetInt64(0, 0).value_or(-1), plain->GetInt64(0, 0).value_or(-2));
  EXPECT_EQ(polled->GetInt64(1, 0).value_or(-1), plain->GetInt64(1, 0).value_or(-2));
  EXPECT_GT(polled->GetInt64(0, 0).value_or(0), 4'000'000);

  auto failing = mem.conn.Prepare(
      "SELECT CASE WHEN i = 3000000 THEN error('row ' || i::VARCHAR) "
      "ELSE i END FROM range(4000000) t(i)");
  ASSERT_TRUE(failing) << failing.error().message;
  auto failed = failing->QueryWithoutSpinning();
  ASSERT_FALSE(failed);
  EXPECT_NE(failed.error().message.find("row 3000000"), std::string::npos)
      << failed.error().message;
}

}  // namespace
}  // namespace databox::duck
