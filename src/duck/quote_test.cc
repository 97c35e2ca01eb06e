#include "duck/quote.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "duck/test_support.h"

namespace databox::duck {
namespace {

TEST(QuoteTest, DoublesTheQuoteCharacter) {
  EXPECT_EQ(QuoteIdentifier("plain"), "\"plain\"");
  EXPECT_EQ(QuoteIdentifier("a\"b"), "\"a\"\"b\"");
  EXPECT_EQ(QuoteIdentifier(""), "\"\"");
  EXPECT_EQ(QuoteLiteral("it's"), "'it''s'");
  EXPECT_EQ(QuoteLiteral("back\\slash"), "'back\\slash'");
  std::vector<std::string> items = {"a", "b'c"};
  EXPECT_EQ(QuoteStringList(items), "'a', 'b''c'");
  EXPECT_EQ(QuoteStringList({}), "");
  std::vector<std::string> names = {"a", "b\"c"};
  EXPECT_EQ(QuoteIdentifierList(names), "\"a\", \"b\"\"c\"");
  EXPECT_EQ(QuoteIdentifierList({}), "");
}

TEST(QuoteTest, HostileNamesWorkInRealStatements) {
  auto mem = testing::OpenMemoryDb();
  const std::vector<std::string> names = {
      "x\"; DROP TABLE y; --", "Ünïcødé 表", "a.b",        "'q'", "select",
      "with\nnewline",         "\"\"\"",     "back\\slash"};
  ASSERT_TRUE(mem.conn.Execute("CREATE TABLE y(v INTEGER)"));
  for (const auto& name : names) {
    const std::string table = QuoteIdentifier(name);
    const std::string column = QuoteIdentifier(name + "_col");
    ASSERT_TRUE(mem.conn.Execute("CREATE TABLE " + table + "(" + column + " VARCHAR)")) << name;
    ASSERT_TRUE(mem.conn.Execute("INSERT INTO " + table + " VALUES (" + QuoteLiteral(name) + ")"))
        << name;
    auto r = mem.conn.Query("SELECT " + column + " FROM " + table);
    ASSERT_TRUE(r.has_value()) << name << ": " << r.error().ToString();
    EXPECT_EQ(r->GetString(0, 0).value(), name);
    EXPECT_EQ(r->column_name(0), name + "_col");
    auto tables = mem.conn.Query("SELECT count(*) FROM duckdb_tables() WHERE table_name = " +
                                 QuoteLiteral(name));
    ASSERT_TRUE(tables.has_value());
    EXPECT_EQ(tables->GetInt64(0, 0).value(), 1) << name;
  }
  // The "DROP TABLE y" inside the first name must not have run.
  auto y = mem.conn.Query("SELECT count(*) FROM y");
  ASSERT_TRUE(y.has_value()) << y.error().ToString();

  auto in_list = mem.conn.Query("SELECT count(*) FROM duckdb_tables() WHERE table_name IN (" +
                                QuoteStringList(names) + ")");
  ASSERT_TRUE(in_list.has_value()) << in_list.error().ToString();
  EXPECT_EQ(in_list->GetInt64(0, 0).value(), static_cast<int64_t>(names.size()));
}

}  // namespace
}  // namespace databox::duck
