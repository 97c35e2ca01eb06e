#include "source/ndjson_records.h"

#include <gtest/gtest.h>

#include <vector>

namespace databox::source {
namespace {

std::vector<std::string> Feed(std::string_view body, const std::string& path = "",
                              int64_t limit = 100, int64_t* fed = nullptr) {
  std::vector<std::string> out;
  auto n = ParseNdjsonRecords(body, path, limit, [&](Json record) {
    out.push_back(record.dump());
    return Ok();
  });
  EXPECT_TRUE(n) << n.error().ToString();
  if (fed != nullptr && n) *fed = *n;
  return out;
}

TEST(ParseNdjsonRecordsTest, OneRecordPerLineKeepingKeyOrder) {
  int64_t fed = 0;
  const auto records =
      Feed("{\"b\": 1, \"a\": 2}\r\n\n   \n{\"a\": [1, {\"c\": null}]}", "", 100, &fed);
  EXPECT_EQ(records, (std::vector<std::string>{R"({"b":1,"a":2})", R"({"a":[1,{"c":null}]})"}));
  EXPECT_EQ(fed, 2);
}

TEST(ParseNdjsonRecordsTest, RecordsPathSelectsInsideEachLineAndLimitStops) {
  const std::string body = "{\"items\": [{\"x\": 1}, {\"x\": 2}]}\n{\"items\": [{\"x\": 3}]}\n";
  EXPECT_EQ(Feed(body, "items"),
            (std::vector<std::string>{R"({"x":1})", R"({"x":2})", R"({"x":3})"}));
  int64_t fed = 0;
  EXPECT_EQ(Feed(body, "items", 2, &fed), (std::vector<std::string>{R"({"x":1})", R"({"x":2})"}));
  EXPECT_EQ(fed, 2);
}

TEST(ParseNdjsonRecordsTest, ABadLineNamesItsLineAndOffset) {
  int calls = 0;
  auto n = ParseNdjsonRecords("{\"a\": 1}\n\n{\"a\": \n{\"a\": 3}\n", "", 100, [&](Json) {
    ++calls;
    return Ok();
  });
  ASSERT_FALSE(n);
  EXPECT_EQ(n.error().kind, ErrorKind::kData);
  EXPECT_NE(n.error().message.find("line 3 (byte offset 10)"), std::string::npos)
      << n.error().message;
  EXPECT_EQ(calls, 1);
}

TEST(ParseNdjsonRecordsTest, ASinkErrorStopsAndIsReturned) {
  int calls = 0;
  auto n = ParseNdjsonRecords("{}\n{}\n{}\n", "", 100, [&](Json) -> Status {
    if (++calls == 2) return MakeError(ErrorKind::kData, "stop here");
    return Ok();
  });
  ASSERT_FALSE(n);
  EXPECT_EQ(n.error().message, "stop here");
  EXPECT_EQ(calls, 2);
}

}  // namespace
}  // namespace databox::source
