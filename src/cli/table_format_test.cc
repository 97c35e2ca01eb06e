// Query results as a table that fits the terminal, as CSV and as typed JSON lines.
#include "cli/table_format.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "cli/terminal_width.h"
#include "duck/test_support.h"

namespace databox::cli {
namespace {

using ::testing::HasSubstr;

class TableFormatTest : public ::testing::Test {
 protected:
  duck::QueryResult Run(const std::string& sql) {
    auto r = mem_.conn.Query(sql);
    EXPECT_TRUE(r.has_value()) << (r ? "" : r.error().ToString());
    return std::move(*r);
  }
  duck::testing::MemoryDb mem_ = duck::testing::OpenMemoryDb();
};

TEST_F(TableFormatTest, TableIsAlignedWithARowCount) {
  EXPECT_EQ(FormatTable(Run("SELECT * FROM (VALUES (1, 'a'), (22, NULL)) t(n, name)")),
            "n   name\n"
            "--  ----\n"
            "1   a\n"
            "22  NULL\n"
            "(2 rows)\n");
}

TEST_F(TableFormatTest, WideColumnsAreNarrowedToTheLineWidth) {
  auto result = Run("SELECT 1 AS id, repeat('x', 50) AS long_text, 'é' || repeat('y', 30) AS utf");
  const std::string table = FormatTable(result, kMaxCellWidth, 40);
  std::size_t start = 0;
  while (start < table.size()) {
    const std::size_t end = table.find('\n', start);
    EXPECT_LE(DisplayWidth(table.substr(start, end - start)), 40u) << table;
    start = end + 1;
  }
  EXPECT_THAT(table, HasSubstr("xxx..."));
  EXPECT_THAT(table, HasSubstr("éyy"));  // a cut never splits a character
  // Without a line width only the 60-character cell limit applies.
  EXPECT_THAT(FormatTable(result), HasSubstr(std::string(50, 'x') + "  "));
  EXPECT_THAT(FormatTable(Run("SELECT repeat('z', 70) AS z")),
              HasSubstr(std::string(57, 'z') + "...\n"));
}

TEST_F(TableFormatTest, CsvQuotesOnlyWhatNeedsIt) {
  EXPECT_EQ(FormatCsv(Run("SELECT 1 AS a, 'x,y' AS \"b,c\", 'say \"hi\"' AS q, NULL AS n, "
                          "'two\nlines' AS t")),
            "a,\"b,c\",q,n,t\n"
            "1,\"x,y\",\"say \"\"hi\"\"\",,\"two\nlines\"\n");
}

TEST_F(TableFormatTest, JsonLinesAreTyped) {
  EXPECT_EQ(FormatJsonLines(Run("SELECT 1 AS a, 1.50 AS b, [1, 2] AS c UNION ALL "
                                "SELECT 2, NULL, []")),
            "{\"a\":1,\"b\":1.5,\"c\":[1,2]}\n{\"a\":2,\"b\":null,\"c\":[]}\n");
}

TEST_F(TableFormatTest, FormatNamesParseAndOthersAreRefused) {
  EXPECT_EQ(ParseQueryFormat("csv"), QueryFormat::kCsv);
  EXPECT_EQ(ParseQueryFormat("json"), QueryFormat::kJson);
  EXPECT_EQ(ParseQueryFormat("table"), QueryFormat::kTable);
  auto bad = ParseQueryFormat("xml");
  ASSERT_FALSE(bad.has_value());
  EXPECT_THAT(bad.error().message, HasSubstr("expected table, csv or json"));
}

TEST(TerminalWidthTest, WindowFirstThenColumnsElseNone) {
  EXPECT_EQ(WidthFrom(120, "80"), 120u);
  EXPECT_EQ(WidthFrom(0, "80"), 80u);
  EXPECT_EQ(WidthFrom(0, nullptr), std::nullopt);
  EXPECT_EQ(WidthFrom(0, "0"), std::nullopt);
  EXPECT_EQ(WidthFrom(0, "wide"), std::nullopt);
}

}  // namespace
}  // namespace databox::cli
