// Model files to lineage: references through the catalog alias, comments ignored, names read.
#include "report/lineage.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "common/test_paths.h"

namespace databox::report {
namespace {

TEST(LineageTest, RawTablesAreReadThroughTheAliasOutsideComments) {
  const std::string sql =
      "-- from polaris_aws.raw_ebird.hotspots (a comment)\n"
      "SELECT * FROM polaris_aws.raw_ebird.recent_observations o\n"
      "JOIN POLARIS_AWS.raw_ebird.notable_observations n ON true\n"
      "JOIN other.raw_noaa.daily_weather w ON true\n"
      "JOIN polaris_aws.raw_ebird.recent_observations again ON true";
  EXPECT_EQ(RawTablesRead(sql, "polaris_aws"),
            (std::vector<std::string>{"raw_ebird.notable_observations",
                                      "raw_ebird.recent_observations"}));
  EXPECT_EQ(RawTablesRead(sql, "other"), std::vector<std::string>{"raw_noaa.daily_weather"});
}

TEST(LineageTest, ModelsReadOtherModelsByTheirWholeName) {
  const std::vector<std::string> models = {"analytics.a", "analytics.ab", "analytics.c"};
  const std::string sql =
      "-- analytics.c in a comment\nSELECT * FROM Analytics.A JOIN db.analytics.ab_x ON true "
      "JOIN analytics.self ON true";
  EXPECT_EQ(ModelsRead(sql, models, "analytics.self"), std::vector<std::string>{"analytics.a"});
  EXPECT_EQ(ModelsRead("SELECT * FROM analytics.a", models, "analytics.a"),
            std::vector<std::string>{});
}

TEST(LineageTest, TheModelNameComesFromTheHeader) {
  EXPECT_EQ(DeclaredModelName("MODEL (\n  name analytics.fct_x,\n  kind FULL\n);"),
            "analytics.fct_x");
  EXPECT_EQ(DeclaredModelName("SELECT 1"), "");
}

TEST(LineageTest, ScanningTheExampleProjectFindsItsModels) {
  auto models = ScanModels(
      std::filesystem::path(test_paths::SourceDir()) / "examples" / "databox" / "transform",
      "polaris_aws");
  ASSERT_TRUE(models) << models.error().message;
  const auto weather = std::find_if(models->begin(), models->end(), [](const ModelReads& m) {
    return m.model == "analytics.fct_daily_weather";
  });
  ASSERT_NE(weather, models->end());
  EXPECT_EQ(weather->file, "models/analytics/fct_daily_weather.sql");
  EXPECT_EQ(weather->reads, std::vector<std::string>{"raw_noaa.daily_weather"});
}

TEST(LineageTest, AMissingProjectIsAnErrorNamingTheFolder) {
  auto models = ScanModels("/nonexistent/transform", "polaris_aws");
  ASSERT_FALSE(models);
  EXPECT_NE(models.error().message.find("/nonexistent/transform/models"), std::string::npos);
}

}  // namespace
}  // namespace databox::report
