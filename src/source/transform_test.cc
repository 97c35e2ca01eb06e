#include "source/transform.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace databox::source {
namespace {

std::vector<Json> RunTransform(const std::string& sql, const std::vector<Json>& records,
                               const TransformVars& vars) {
  auto transformer = Transformer::Make(sql);
  EXPECT_TRUE(transformer.has_value()) << transformer.error().ToString();
  std::vector<Json> out;
  auto run = (*transformer)->Run(records, vars, [&](Json row) {
    out.push_back(std::move(row));
    return Ok();
  });
  EXPECT_TRUE(run.has_value()) << run.error().ToString();
  return out;
}

TransformVars Vars() {
  return {.loaded_at = std::chrono::sys_days(std::chrono::year(2026) / 2 / 15) +
                       std::chrono::hours(6) + std::chrono::microseconds(1500),
          .source_url = "https://api.example.org/x?key=***",
          .page = 3,
          .vars = {{"region", "US-AZ"}}};
}

TEST(TransformTest, ColumnOrderNestedListsStructsAndNulls) {
  const auto rows = RunTransform(
      "SELECT record->>'$.id' AS zeta, json_extract_string(record, '$.codes[*]') AS codes,\n"
      "       {'a': 1, 'b': [true]} AS s, NULL AS nothing, 2.5::DOUBLE AS d\n"
      "FROM records -- trailing comment;\n",
      {Json::parse(R"({"id":"x1","codes":["A","B"]})")}, Vars());
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].dump(),
            R"({"zeta":"x1","codes":["A","B"],"s":{"a":1,"b":[true]},"nothing":null,"d":2.5})");
}

TEST(TransformTest, VariablesAsTheRegistryDocumentsThem) {
  const auto rows = RunTransform(
      "SELECT getvariable('loaded_at') AS loaded_at, typeof(getvariable('loaded_at')) AS t,\n"
      "       getvariable('source_url') AS url, getvariable('page') AS page,\n"
      "       typeof(getvariable('page')) AS pt, getvariable('region') AS region FROM records",
      {Json::object()}, Vars());
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0]["loaded_at"], "2026-02-15 06:00:00.0015");
  EXPECT_EQ(rows[0]["t"], "TIMESTAMP");
  EXPECT_EQ(rows[0]["url"], "https://api.example.org/x?key=***");
  EXPECT_EQ(rows[0]["page"], 3);
  EXPECT_EQ(rows[0]["pt"], "BIGINT");
  EXPECT_EQ(rows[0]["region"], "US-AZ");
}

TEST(TransformTest, PagesAreIndependentAndVariablesOfEarlierPagesAreGone) {
  auto transformer =
      Transformer::Make("SELECT count(*) AS n, getvariable('region') AS r FROM records");
  ASSERT_TRUE(transformer.has_value());
  std::vector<Json> out;
  auto sink = [&](Json row) {
    out.push_back(std::move(row));
    return Ok();
  };
  ASSERT_TRUE((*transformer)->Run({Json::object(), Json::object()}, Vars(), sink).has_value());
  TransformVars later = Vars();
  later.vars.clear();
  ASSERT_TRUE((*transformer)->Run({Json::object()}, later, sink).has_value());
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0]["n"], 2);
  EXPECT_EQ(out[1]["n"], 1);
  EXPECT_TRUE(out[1]["r"].is_null());
}

TEST(TransformTest, SqlErrorsAreReported) {
  auto transformer = Transformer::Make("SELECT nope FROM records");
  ASSERT_TRUE(transformer.has_value());
  auto run = (*transformer)->Run({Json::object()}, Vars(), [](Json) { return Ok(); });
  ASSERT_FALSE(run.has_value());
  EXPECT_THAT(run.error().message, ::testing::HasSubstr("nope"));
  EXPECT_FALSE(Transformer::Make("  ;\n").has_value());
}

}  // namespace
}  // namespace databox::source
