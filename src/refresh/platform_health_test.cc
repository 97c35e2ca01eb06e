// platform_health generation from a registry, and the generated model run by DuckDB over real
// raw views (load status rows committed to Iceberg, read through the catalog alias).
#include "refresh/platform_health.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "refresh/analytics.h"
#include "refresh/analytics_test_support.h"
#include "registry/registry.h"

namespace databox::refresh {
namespace {

class PlatformHealthTest : public testing::ProjectFixture {
 protected:
  //! The model's query (text after the MODEL block's closing ");").
  static std::string QueryOf(const std::string& model) {
    return model.substr(model.find(");\n") + 3);
  }
};

TEST_F(PlatformHealthTest, ListsEveryRoutineSourceAndNoExplicitOne) {
  const std::string sql = PlatformHealthModelSql(*registry_);
  EXPECT_NE(sql.find("name analytics.platform_health"), std::string::npos);
  EXPECT_NE(sql.find("FROM lake.raw_alpha._dlt_load_status"), std::string::npos) << sql;
  EXPECT_NE(sql.find("FROM lake.raw_beta._dlt_load_status"), std::string::npos) << sql;
  EXPECT_EQ(sql.find("raw_gamma"), std::string::npos) << sql;  // explicit-only
}

TEST_F(PlatformHealthTest, ReportsTheLatestLoadPerSourceAndNeverLoadedSources) {
  AddLoadStatus("alpha",
                "('1700000000.1', 'alpha', 0, TIMESTAMP '2024-01-01 00:00:00', 10), "
                "('1700000500.2', 'alpha', 0, TIMESTAMP '2024-01-02 00:00:00', 12)");
  AddLoadStatus("alpha", "('1700000100.3', 'alpha', 1, TIMESTAMP '2024-01-01 12:00:00', 0)");
  ASSERT_TRUE(RefreshRawViews(*workspace_).has_value());
  auto analytics = OpenAnalytics(*workspace_);
  ASSERT_TRUE(analytics.has_value()) << analytics.error().ToString();

  auto result = analytics->connection.Query(
      "SELECT source, load_id, status, rows_loaded, completed_at, age_seconds > 0 FROM (" +
      QueryOf(PlatformHealthModelSql(*registry_)) + ")");
  ASSERT_TRUE(result.has_value()) << result.error().ToString();
  ASSERT_EQ(result->row_count(), 2u);
  EXPECT_EQ(*result->GetString(0, 0), "alpha");
  EXPECT_EQ(*result->GetString(1, 0), "1700000500.2");
  EXPECT_EQ(*result->GetInt64(2, 0), 0);
  EXPECT_EQ(*result->GetInt64(3, 0), 12);
  EXPECT_EQ(*result->GetAsString(4, 0), "2024-01-02 00:00:00");
  EXPECT_TRUE(*result->GetBool(5, 0));
  EXPECT_EQ(*result->GetString(0, 1), "beta");  // never loaded: present, with NULLs
  EXPECT_TRUE(result->IsNull(1, 1));
  EXPECT_TRUE(result->IsNull(5, 1));
}

TEST_F(PlatformHealthTest, WritesTheModelIntoTheProjectOnlyWhenItChanged) {
  ASSERT_TRUE(WritePlatformHealthModel(*registry_).has_value());
  const auto path = PlatformHealthModelPath(registry_->project.transform.project_dir);
  ASSERT_EQ(path, dir_ / "transform" / "models" / "analytics" / "platform_health.sql");
  std::stringstream text;
  text << std::ifstream(path).rdbuf();
  EXPECT_EQ(text.str(), PlatformHealthModelSql(*registry_));

  const auto written = std::filesystem::last_write_time(path);
  std::filesystem::last_write_time(path, written - std::chrono::hours(1));
  ASSERT_TRUE(WritePlatformHealthModel(*registry_).has_value());
  EXPECT_EQ(std::filesystem::last_write_time(path), written - std::chrono::hours(1));

  std::ofstream(path) << "stale";
  ASSERT_TRUE(WritePlatformHealthModel(*registry_).has_value());
  std::stringstream again;
  again << std::ifstream(path).rdbuf();
  EXPECT_EQ(again.str(), PlatformHealthModelSql(*registry_));
}

}  // namespace
}  // namespace databox::refresh

namespace databox::refresh {
namespace {

// The example project ships the generated model, so sqlmesh can be run by hand; it must be what
// the runner would write for the example registry (the six routine sources, not avonet/usfws).
TEST(ExamplePlatformHealthTest, CommittedModelMatchesTheExampleRegistry) {
  const std::filesystem::path example =
      std::filesystem::path(DATABOX_SOURCE_DIR) / "examples/databox";
  auto registry = registry::LoadRegistry(example / "databox.toml");
  ASSERT_TRUE(registry.has_value()) << registry.error().ToString();
  const std::string sql = PlatformHealthModelSql(*registry);
  for (const char* source : {"ebird", "noaa", "usgs", "usgs_earthquakes", "gbif", "xeno_canto"}) {
    EXPECT_NE(sql.find("FROM polaris_aws.raw_" + std::string(source) + "._dlt_load_status"),
              std::string::npos)
        << source;
  }
  EXPECT_EQ(sql.find("raw_avonet"), std::string::npos);
  EXPECT_EQ(sql.find("raw_usfws"), std::string::npos);
  std::stringstream committed;
  committed << std::ifstream(PlatformHealthModelPath(example / "transform")).rdbuf();
  EXPECT_EQ(committed.str(), sql) << "regenerate examples/databox/transform/models/analytics/"
                                     "platform_health.sql";
}

}  // namespace
}  // namespace databox::refresh
