#include "source/records.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>

namespace databox::source {
namespace {

using registry::ResponseFormat;

std::vector<Json> Collect(std::string_view body, ResponseFormat format, int64_t* short_rows,
                          int64_t limit = 1000) {
  std::vector<Json> out;
  auto fed = ParseTextRecords(
      body, format, limit,
      [&](Json r) {
        out.push_back(std::move(r));
        return Ok();
      },
      short_rows);
  EXPECT_TRUE(fed.has_value()) << fed.error().ToString();
  return out;
}

TEST(FindPathTest, WalksObjectsAndArrayIndices) {
  const Json doc = Json::parse(R"({"a":{"b":[{"c":7}]},"n":null})");
  EXPECT_EQ(FindPath(doc, "a.b.0.c")->get<int>(), 7);
  EXPECT_EQ(FindPath(doc, ""), &doc);
  EXPECT_EQ(FindPath(doc, "$"), &doc);
  EXPECT_EQ(FindPath(doc, "a.x"), nullptr);
  EXPECT_EQ(FindPath(doc, "a.b.1"), nullptr);
  EXPECT_EQ(FindPath(doc, "a.b.c"), nullptr);
  EXPECT_TRUE(FindPath(doc, "n")->is_null());
}

TEST(SelectJsonRecordsTest, ArrayElementsWholeDocumentAndCap) {
  const Json doc = Json::parse(R"({"items":[{"i":1},{"i":2},{"i":3}],"one":{"k":1}})");
  std::vector<Json> got;
  auto sink = [&](Json r) {
    got.push_back(std::move(r));
    return Ok();
  };
  EXPECT_EQ(*SelectJsonRecords(doc, "items", 2, sink), 2);
  EXPECT_EQ(got.back()["i"], 2);
  got.clear();
  EXPECT_EQ(*SelectJsonRecords(doc, "$", 10, sink), 1);
  EXPECT_EQ(got.at(0), doc);
  got.clear();
  EXPECT_EQ(*SelectJsonRecords(doc, "one", 10, sink), 1);
  EXPECT_EQ(*SelectJsonRecords(doc, "missing", 10, sink), 0);
  EXPECT_EQ(*SelectJsonRecords(Json::parse("[1,2]"), "", 10, sink), 2);
}

TEST(SelectJsonRecordsTest, SinkErrorStopsAndPropagates) {
  int calls = 0;
  auto fed = SelectJsonRecords(Json::parse("[1,2,3]"), "", 10, [&](Json) -> Status {
    ++calls;
    return MakeError(ErrorKind::kData, "stop");
  });
  ASSERT_FALSE(fed.has_value());
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(fed.error().message, "stop");
}

TEST(ParseTextRecordsTest, RdbSkipsCommentsFormatLineAndShortRows) {
  const std::string body =
      "# comment\n#\nagency_cd\tsite_no\tname\n5s\t15s\t50s\nUSGS\t0101\tRiver A\n"
      "USGS\t0102\n\nUSGS\t0103\t\r\n";
  int64_t short_rows = 0;
  const auto rows = Collect(body, ResponseFormat::kRdb, &short_rows);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].dump(), R"({"agency_cd":"USGS","site_no":"0101","name":"River A"})");
  EXPECT_EQ(rows[1]["name"], "");
  EXPECT_EQ(short_rows, 1);
}

TEST(ParseTextRecordsTest, RdbGivesTheLineOfTheFirstShortRow) {
  const std::vector<std::string> lines = {"# c", "a\tb\tc", "5s\t5s\t5s", "1\t2\t3",
                                          "4",   "5\t6\t7", "8\t9",       "10\t11\t12"};
  std::string body;
  for (const auto& line : lines) body += line + "\n";
  int64_t short_rows = 0;
  int64_t first_short_line = 0;
  auto fed = ParseTextRecords(
      body, ResponseFormat::kRdb, 1000, [](Json) { return Ok(); }, &short_rows, &first_short_line);
  ASSERT_TRUE(fed.has_value()) << fed.error().ToString();
  EXPECT_EQ(*fed, 3);
  EXPECT_EQ(short_rows, 2);
  const auto first = std::find(lines.begin(), lines.end(), "4");
  EXPECT_EQ(first_short_line, first - lines.begin() + 1);
}

TEST(ParseTextRecordsTest, CsvQuotingAndTsvKeepHashLines) {
  int64_t short_rows = 0;
  const auto csv = Collect("a,b\n\"x, y\",\"say \"\"hi\"\"\"\n\"multi\nline\",2\n",
                           ResponseFormat::kCsv, &short_rows);
  ASSERT_EQ(csv.size(), 2u);
  EXPECT_EQ(csv[0]["a"], "x, y");
  EXPECT_EQ(csv[0]["b"], "say \"hi\"");
  EXPECT_EQ(csv[1]["a"], "multi\nline");
  const auto tsv = Collect("a\tb\n#1\t2\n", ResponseFormat::kTsv, &short_rows);
  ASSERT_EQ(tsv.size(), 1u);
  EXPECT_EQ(tsv[0]["a"], "#1");
}

TEST(ParseTextRecordsTest, ExtraFieldsAreAnErrorAndLimitStops) {
  auto fed = ParseTextRecords(
      "a\tb\n1\t2\t3\n", ResponseFormat::kTsv, 10, [](Json) { return Ok(); }, nullptr);
  ASSERT_FALSE(fed.has_value());
  EXPECT_THAT(fed.error().message, ::testing::HasSubstr("line 2 has 3 fields"));
  int64_t short_rows = 0;
  EXPECT_EQ(Collect("a\n1\n2\n3\n", ResponseFormat::kTsv, &short_rows, 2).size(), 2u);
}

//! The error of parsing `body`, or "" when it parsed.
std::string ParseError(std::string_view body, ResponseFormat format) {
  auto fed = ParseTextRecords(
      body, format, 1000, [](Json) { return Ok(); }, nullptr);
  return fed ? "" : fed.error().message;
}

TEST(ParseTextRecordsTest, CsvRaggedRowsFailNamingThePhysicalLineAndOffset) {
  // Line 4 follows a record spanning lines 2-3; it starts at byte 6 + 7 + 3 = 16.
  EXPECT_THAT(ParseError("a,b,c\n1,2,\"x\ny\"\n3,4,5,6\n", ResponseFormat::kCsv),
              ::testing::HasSubstr("line 4 has 4 fields but the header has 3 (the record starts "
                                   "at byte offset 16)"));
  // A short row is not skipped: the rows after it would load without it.
  EXPECT_THAT(ParseError("a,b,c\n1,2,3\n4,5\n6,7,8\n", ResponseFormat::kCsv),
              ::testing::HasSubstr("line 3 has 2 fields but the header has 3 (the record starts "
                                   "at byte offset 12)"));
  EXPECT_THAT(ParseError("a\tb\n1\n", ResponseFormat::kTsv),
              ::testing::HasSubstr("line 2 has 1 fields but the header has 2"));
}

TEST(ParseTextRecordsTest, CsvQuoteOpenAtTheEndIsAnErrorNotAValue) {
  // Formerly the open quote swallowed the rest of the body into one value: row "3" was lost and
  // row "2" got "open\n3,z" as its value.
  EXPECT_THAT(ParseError("a,b\n1,x\n2,\"open\n3,z\n", ResponseFormat::kCsv),
              ::testing::HasSubstr("line 3: the quoted field opened at byte offset 10 is not "
                                   "closed before the end of the data"));
  // The open quote of a record that already spans lines is reported at that record's start.
  EXPECT_THAT(ParseError("a,b\n\"x\ny\",\"z\n", ResponseFormat::kCsv),
              ::testing::HasSubstr("line 2: the quoted field opened at byte offset 10"));
  // Doubled quotes and a quoted CRLF are closed properly.
  EXPECT_EQ(ParseError("a,b\r\n\"say \"\"hi\"\"\",\"1\r\n2\"\r\n", ResponseFormat::kCsv), "");
}

}  // namespace
}  // namespace databox::source
