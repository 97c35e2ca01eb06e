#include "duck/appender.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "duck/test_support.h"

namespace databox::duck {
namespace {

using ::testing::HasSubstr;

TEST(AppenderTest, RoundTripsEveryKind) {
  auto mem = testing::OpenMemoryDb();
  ASSERT_TRUE(mem.conn.Execute(
      "CREATE TABLE t(b BOOLEAN, i INTEGER, l BIGINT, u UBIGINT, d DOUBLE, s VARCHAR, "
      "bl BLOB, dt DATE, ts TIMESTAMP, n BIGINT, df VARCHAR DEFAULT 'dflt')"));
  auto app = Appender::Make(mem.conn, "", "t");
  ASSERT_TRUE(app.has_value()) << app.error().ToString();
  EXPECT_EQ(app->column_count(), 11u);
  const std::string blob("\x00\x01", 2);
  ASSERT_TRUE(app->AppendBool(true));
  ASSERT_TRUE(app->AppendInt32(-5));
  ASSERT_TRUE(app->AppendInt64(int64_t{1} << 40));
  ASSERT_TRUE(app->AppendUInt64(18446744073709551615ull));
  ASSERT_TRUE(app->AppendDouble(2.5));
  ASSERT_TRUE(app->AppendString("héllo 'q'"));
  ASSERT_TRUE(app->AppendBlob(blob));
  ASSERT_TRUE(app->AppendDate(19782));                          // 2024-02-29
  ASSERT_TRUE(app->AppendTimestampMicros(1704164645123456LL));  // 2024-01-02 03:04:05.123456
  ASSERT_TRUE(app->AppendNull());
  ASSERT_TRUE(app->AppendDefault());
  ASSERT_TRUE(app->EndRow());
  ASSERT_TRUE(app->Close());

  auto r = mem.conn.Query(
      "SELECT b, i, l, u::VARCHAR, d, s, bl, dt::VARCHAR, ts::VARCHAR, n, df FROM t");
  ASSERT_TRUE(r.has_value()) << r.error().ToString();
  ASSERT_EQ(r->row_count(), 1u);
  EXPECT_EQ(r->GetBool(0, 0).value(), true);
  EXPECT_EQ(r->GetInt64(1, 0).value(), -5);
  EXPECT_EQ(r->GetInt64(2, 0).value(), int64_t{1} << 40);
  EXPECT_EQ(r->GetString(3, 0).value(), "18446744073709551615");
  EXPECT_EQ(r->GetDouble(4, 0).value(), 2.5);
  EXPECT_EQ(r->GetString(5, 0).value(), "héllo 'q'");
  EXPECT_EQ(r->GetString(6, 0).value(), blob);
  EXPECT_EQ(r->GetString(7, 0).value(), "2024-02-29");
  EXPECT_EQ(r->GetString(8, 0).value(), "2024-01-02 03:04:05.123456");
  EXPECT_TRUE(r->IsNull(9, 0));
  EXPECT_EQ(r->GetString(10, 0).value(), "dflt");
}

TEST(AppenderTest, ManyRowsWithFlush) {
  auto mem = testing::OpenMemoryDb();
  ASSERT_TRUE(mem.conn.Execute("CREATE SCHEMA s; CREATE TABLE s.t(i BIGINT)"));
  auto app = Appender::Make(mem.conn, "s", "t");
  ASSERT_TRUE(app.has_value()) << app.error().ToString();
  int64_t want = 0;
  for (int64_t i = 0; i < 5000; ++i) {
    ASSERT_TRUE(app->AppendInt64(i));
    ASSERT_TRUE(app->EndRow());
    want += i;
    if (i == 2500) {
      ASSERT_TRUE(app->Flush());
    }
  }
  ASSERT_TRUE(app->Close());
  auto r = mem.conn.Query("SELECT count(*), sum(i)::BIGINT FROM s.t");
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->GetInt64(0, 0).value(), 5000);
  EXPECT_EQ(r->GetInt64(1, 0).value(), want);
}

TEST(AppenderTest, MissingTableNamesTheTable) {
  auto mem = testing::OpenMemoryDb();
  auto app = Appender::Make(mem.conn, "", "no_such_table");
  ASSERT_FALSE(app.has_value());
  EXPECT_THAT(app.error().message, HasSubstr("no_such_table"));
}

TEST(AppenderTest, IncompleteRowAndTypeErrorsCarryDuckDbMessage) {
  auto mem = testing::OpenMemoryDb();
  ASSERT_TRUE(mem.conn.Execute("CREATE TABLE t(a BIGINT, b BIGINT NOT NULL)"));
  auto app = Appender::Make(mem.conn, "", "t");
  ASSERT_TRUE(app.has_value());
  ASSERT_TRUE(app->AppendInt64(1));
  auto short_row = app->EndRow();
  ASSERT_FALSE(short_row.has_value());
  EXPECT_THAT(short_row.error().message, HasSubstr("table t"));
  EXPECT_THAT(short_row.error().message, HasSubstr("end row failed"));

  auto app2 = Appender::Make(mem.conn, "", "t");
  ASSERT_TRUE(app2.has_value());
  ASSERT_TRUE(app2->AppendInt64(1));
  ASSERT_TRUE(app2->AppendNull());
  ASSERT_TRUE(app2->EndRow());
  auto closed = app2->Close();
  ASSERT_FALSE(closed.has_value());  // NOT NULL is checked when rows reach the table
  EXPECT_THAT(closed.error().message, HasSubstr("NOT NULL"));
}

}  // namespace
}  // namespace databox::duck
