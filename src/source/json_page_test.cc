#include "source/json_page.h"

#include <gtest/gtest.h>
#include <simdjson.h>

#include <string>
#include <vector>

#include "common/simd_json.h"
#include "common/untrusted_json.h"

namespace databox::source {
namespace {

//! The page as nlohmann reads it (the reference), with the node at `path` replaced by [].
Json ReferenceRest(const std::string& body, const std::string& path) {
  Json doc = ParseUntrustedJson(body).value();
  Json* node = const_cast<Json*>(FindPath(doc, path));
  if (node != nullptr) *node = Json::array();
  return doc;
}

//! The records SelectJsonRecords feeds from the nlohmann reading, as JSON texts.
std::vector<std::string> ReferenceRecords(const std::string& body, const std::string& path,
                                          int64_t limit) {
  std::vector<std::string> records;
  auto fed = SelectJsonRecords(ParseUntrustedJson(body).value(), path, limit, [&](Json record) {
    records.push_back(record.dump());
    return Ok();
  });
  EXPECT_TRUE(fed);
  return records;
}

std::optional<std::vector<std::string>> FastRecords(const std::string& body,
                                                    const std::string& path, int64_t limit) {
  JsonPageReader reader;
  std::vector<std::string> records;
  auto fed = reader.ForEachRecord(body, path, limit, [&](const simdjson::dom::element& record) {
    records.push_back(ToNlohmann(record).dump());
    return Ok();
  });
  EXPECT_TRUE(fed);
  if (!*fed) return std::nullopt;
  EXPECT_EQ(**fed, static_cast<int64_t>(records.size()));
  return records;
}

struct Case {
  std::string body;
  std::string path;
  int64_t count;  //!< records at path
};

TEST(JsonPageReader, OutlineAndRecordsAreWhatNlohmannReads) {
  const std::vector<Case> cases = {
      {R"({"offset":0,"count":3,"results":[{"a":1},{"b":[1,2]},{"c":{"d":null}}],"end":false})",
       "results", 3},
      {R"({"data":{"items":[{"x":1.5},{"x":-2}],"next":"https://h/p?c=2"},"n":18446744073709551615})",
       "data.items", 2},
      {R"({"pages":[{"items":[{"k":1}]},{"items":[{"k":2},{"k":3}]}],"t":2})", "pages.1.items", 2},
      {R"({"results":null,"count":0})", "results", 0},
      {R"({"count":0})", "results", 0},
      {R"({"result":{"only":"one"},"meta":{"dup":1}})", "result", 1},
      // A repeated records key: nlohmann keeps the first position and the last value.
      {R"({"results":[{"a":1}],"count":9,"results":[{"a":2},{"a":3}]})", "results", 2},
      {R"({"text":"caf\u00e9 \ud83d\ude00","results":[{"t":"\"q\" \\ b"}],"e":{},"l":[]})",
       "results", 1},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.body);
    JsonPageReader reader;
    const auto outline = reader.Outline(c.body, c.path);
    ASSERT_TRUE(outline.has_value());
    EXPECT_EQ(outline->records, c.count);
    EXPECT_EQ(outline->rest.dump(), ReferenceRest(c.body, c.path).dump());
    EXPECT_EQ(FastRecords(c.body, c.path, 1000), ReferenceRecords(c.body, c.path, 1000));
    EXPECT_EQ(FastRecords(c.body, c.path, 1), ReferenceRecords(c.body, c.path, 1));
  }
}

TEST(JsonPageReader, TheWholeDocumentAsRecords) {
  const std::string array = R"([{"a":1},{"a":2},3,null])";
  EXPECT_EQ(FastRecords(array, "", 10), ReferenceRecords(array, "", 10));
  EXPECT_EQ(FastRecords(array, "$", 10), ReferenceRecords(array, "$", 10));
  JsonPageReader reader;
  EXPECT_FALSE(reader.Outline(array, "")) << "no rest when the page is the records";
  EXPECT_FALSE(reader.Outline(array, "$"));
}

TEST(JsonPageReader, PagesOnlyNlohmannReadsRightAreLeftToIt) {
  const std::vector<std::string> pages = {
      R"({"results":[{"a":1}],"big":123456789012345678901234567890})",  // kept as its digits
      R"({"results":[{"a":1e400}]})",                                   // beyond a double
      R"({"results":[{"a":1}],"deep":)" + std::string(300, '[') + std::string(300, ']') + "}",
      R"({"results":[{"a":1}],"count":1,"count":2})",  // a repeated key in the rest
      R"({"results":[{"a":1}],)",                      // not JSON
      "{\"results\":[{\"a\":\"\xff\"}]}",              // not UTF-8
  };
  for (const std::string& page : pages) {
    SCOPED_TRACE(page);
    JsonPageReader reader;
    EXPECT_FALSE(reader.Outline(page, "results").has_value());
  }
  // The feed does not read the rest: a repeated key there does not matter to it.
  EXPECT_EQ(FastRecords(pages[3], "results", 10), ReferenceRecords(pages[3], "results", 10));
  for (std::size_t i : {0, 1, 2, 4, 5}) {
    SCOPED_TRACE(pages[i]);
    EXPECT_EQ(FastRecords(pages[i], "results", 10), std::nullopt);
  }
}

TEST(JsonPageReader, ASinkErrorStopsTheFeed) {
  JsonPageReader reader;
  int calls = 0;
  auto fed = reader.ForEachRecord(R"({"r":[1,2,3]})", "r", 10, [&](const auto&) -> Status {
    ++calls;
    return MakeError(ErrorKind::kData, "stop");
  });
  ASSERT_FALSE(fed);
  EXPECT_EQ(calls, 1);
}

TEST(JsonPageReader, OneReaderReadsPagesOfAnySizeInTurn) {
  JsonPageReader reader;
  std::string big = R"({"results":[)";
  for (int i = 0; i < 20000; ++i)
    big += (i ? "," : "") + std::string(R"({"i":)") + std::to_string(i) + "}";
  big += "]}";
  const std::string small = R"({"results":[{"i":0}]})";
  for (const std::string* page : std::vector<const std::string*>{&big, &small, &big}) {
    const auto outline = reader.Outline(*page, "results");
    ASSERT_TRUE(outline.has_value());
    EXPECT_EQ(outline->records, page == &big ? 20000 : 1);
  }
}

}  // namespace
}  // namespace databox::source
