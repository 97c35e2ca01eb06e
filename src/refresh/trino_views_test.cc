// The statements databox runs on a Trino gateway before and after the transform, over the test
// registry (alpha and beta routine, gamma explicit) and a real embedded catalog.
#include "refresh/trino_views.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "refresh/analytics_test_support.h"

namespace databox::refresh {
namespace {

using TrinoViewsTest = testing::ProjectFixture;

bool Contains(const std::vector<std::string>& statements, const std::string& text) {
  return std::ranges::any_of(statements,
                             [&](const std::string& s) { return s.find(text) != s.npos; });
}

TEST_F(TrinoViewsTest, EveryDeclaredTableGetsAPlaceholderDroppedAfterTheRun) {
  auto made = MakeTrinoViewStatements(*workspace_);
  ASSERT_TRUE(made.has_value()) << made.error().message;
  EXPECT_EQ(made->placeholders,
            (std::vector<std::string>{
                "raw_alpha.t", "raw_alpha._dlt_load_status", "raw_alpha._dlt_loads",
                "raw_beta.events", "raw_beta._dlt_load_status", "raw_beta._dlt_loads",
                "raw_gamma.traits", "raw_gamma._dlt_load_status", "raw_gamma._dlt_loads"}));
  EXPECT_EQ(made->after.size(), made->placeholders.size());
  EXPECT_TRUE(Contains(made->after, R"(DROP VIEW IF EXISTS "lake"."raw_gamma"."traits")"));
  EXPECT_TRUE(Contains(made->before, R"(CREATE SCHEMA IF NOT EXISTS "lake"."raw_gamma")"));
  // Declared types written as Trino names them.
  EXPECT_TRUE(Contains(made->before, R"(CAST(NULL AS DOUBLE) AS "mass")"));
  EXPECT_TRUE(
      Contains(made->before, R"(CAST(NULL AS timestamp(6) with time zone) AS "inserted_at")"));
  // Placeholders first, the platform views last (they read the placeholders).
  EXPECT_TRUE(made->before.back().starts_with(
      R"(CREATE OR REPLACE VIEW "lake"."databox"."platform_loads" AS )"));
  EXPECT_FALSE(Contains(made->after, "databox"));
}

TEST_F(TrinoViewsTest, ALoadedTableIsReadNotReplaced) {
  AddLoadStatus("alpha", "('1700000000.1', 'alpha', 0, TIMESTAMP '2024-01-01 00:00:00', 10)");
  auto made = MakeTrinoViewStatements(*workspace_);
  ASSERT_TRUE(made.has_value()) << made.error().message;
  EXPECT_EQ(std::ranges::count(made->placeholders, "raw_alpha._dlt_load_status"), 0);
  EXPECT_FALSE(Contains(made->before, R"(VIEW "lake"."raw_alpha"."_dlt_load_status")"));
  EXPECT_TRUE(Contains(made->before, R"(SELECT * FROM "lake"."raw_alpha"."_dlt_load_status")"));
}

TEST(TrinoTypeOfTest, MapsDuckDbTypesTrinoSpellsOtherwise) {
  EXPECT_EQ(TrinoTypeOf("TIMESTAMPTZ"), "timestamp(6) with time zone");
  EXPECT_EQ(TrinoTypeOf("TIMESTAMP"), "timestamp(6)");
  EXPECT_EQ(TrinoTypeOf("BLOB"), "varbinary");
  EXPECT_EQ(TrinoTypeOf("VARCHAR"), "VARCHAR");
  EXPECT_EQ(TrinoTypeOf("DECIMAL(38, 9)"), "DECIMAL(38, 9)");
}

}  // namespace
}  // namespace databox::refresh
