// The platform views of the raw views file (databox.sources, databox.platform_loads) over real
// raw views (load status rows committed to Iceberg, read through the catalog alias), and the
// example project's hand-written model analytics.platform_health run by DuckDB over them.
#include "refresh/platform_health.h"

#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <sstream>

#include "common/test_paths.h"
#include "refresh/analytics.h"
#include "refresh/analytics_test_support.h"
#include "registry/registry.h"

namespace databox::refresh {
namespace {

const std::filesystem::path kExampleDir =
    std::filesystem::path(test_paths::SourceDir()) / "examples/databox";
const std::filesystem::path kExampleModel =
    kExampleDir / "transform/models/analytics/platform_health.sql";

std::string Slurp(const std::filesystem::path& path) {
  std::stringstream text;
  text << std::ifstream(path).rdbuf();
  return text.str();
}

class PlatformHealthTest : public testing::ProjectFixture {
 protected:
  //! The example model's query (text after the MODEL block's closing ");"), reading the test
  //! registry's alias instead of polaris_aws.
  static std::string ExampleQuery() {
    const std::string model = Slurp(kExampleModel);
    return std::regex_replace(model.substr(model.find(");\n") + 3), std::regex("polaris_aws\\."),
                              "lake.");
  }
};

TEST_F(PlatformHealthTest, ListsEveryRoutineSourceAndNoExplicitOne) {
  ASSERT_TRUE(RefreshRawViews(*workspace_).has_value());
  EXPECT_EQ(AnalyticsRows("SELECT source FROM lake.databox.platform_loads ORDER BY source"),
            (std::vector<std::string>{"alpha", "beta"}));  // not gamma: explicit-only
  EXPECT_EQ(AnalyticsRows("SELECT source, routine FROM lake.databox.sources ORDER BY source"),
            (std::vector<std::string>{"alpha|true", "beta|true", "gamma|false"}));
}

TEST_F(PlatformHealthTest, PlatformLoadsHasEveryLoadStatusRowAndANullRowPerNeverLoadedSource) {
  AddLoadStatus("alpha",
                "('1700000000.1', 'alpha', 0, TIMESTAMP '2024-01-01 00:00:00', 10), "
                "('1700000500.2', 'alpha', 0, TIMESTAMP '2024-01-02 00:00:00', 12)");
  AddLoadStatus("alpha", "('1700000100.3', 'alpha', 1, TIMESTAMP '2024-01-01 12:00:00', 0)");
  ASSERT_TRUE(RefreshRawViews(*workspace_).has_value());
  EXPECT_EQ(AnalyticsRows("SELECT source, load_id, status, rows_loaded, inserted_at "
                          "FROM lake.databox.platform_loads ORDER BY source, load_id"),
            (std::vector<std::string>{"alpha|1700000000.1|0|10|2024-01-01 00:00:00",
                                      "alpha|1700000100.3|1|0|2024-01-01 12:00:00",
                                      "alpha|1700000500.2|0|12|2024-01-02 00:00:00",
                                      "beta|NULL|NULL|NULL|NULL"}));
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
      ExampleQuery() + ")");
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

TEST_F(PlatformHealthTest, NoRoutineSourceGivesNoRowsWithTheSameColumns) {
  std::string text = testing::kTestRegistry;
  text = std::regex_replace(text, std::regex("eligibility = \"routine\""),
                            "eligibility = \"explicit\"");
  UseRegistry(text);
  ASSERT_TRUE(RefreshRawViews(*workspace_).has_value());
  EXPECT_EQ(AnalyticsRows("SELECT count(*) FROM lake.databox.platform_loads"),
            std::vector<std::string>{"0"});
  EXPECT_EQ(AnalyticsRows("SELECT count(*), count(source), count(age_seconds) FROM (" +
                          ExampleQuery() + ")"),
            std::vector<std::string>{"0|0|0"});
}

TEST_F(PlatformHealthTest, AChangedSourceSetRebuildsTheViewsBeforeTheyAreRead) {
  ASSERT_TRUE(RefreshRawViews(*workspace_).has_value());
  EXPECT_TRUE(RawViewsAreCurrent(*registry_));
  const std::string beta = "name = \"beta\"\neligibility = \"routine\"";
  std::string text = testing::kTestRegistry;
  ASSERT_NE(text.find(beta), std::string::npos);
  text.replace(text.find(beta), beta.size(), "name = \"beta\"\neligibility = \"explicit\"");
  UseRegistry(text);
  EXPECT_FALSE(RawViewsAreCurrent(*registry_));
  // OpenAnalytics (databox query), like RunTransform, rebuilds it first.
  EXPECT_EQ(AnalyticsRows("SELECT source, load_id FROM lake.databox.platform_loads"),
            std::vector<std::string>{"alpha|NULL"});
  EXPECT_TRUE(RawViewsAreCurrent(*registry_));
  EXPECT_EQ(AnalyticsRows("SELECT source, routine FROM lake.databox.sources ORDER BY source"),
            (std::vector<std::string>{"alpha|true", "beta|false", "gamma|false"}));
}

TEST_F(PlatformHealthTest, AViewsFileWithoutThePlatformViewsIsNotCurrent) {
  std::filesystem::create_directories(RawViewsPath(*registry_).parent_path());
  {
    auto db = duck::Database::Open(RawViewsPath(*registry_).string());
    ASSERT_TRUE(db.has_value());
    auto conn = duck::Connection::Open(*db);
    ASSERT_TRUE(conn.has_value());
    ASSERT_TRUE(conn->Execute("CREATE SCHEMA raw_alpha").has_value());
  }
  EXPECT_FALSE(RawViewsAreCurrent(*registry_));
  ASSERT_TRUE(EnsureRawViews(*workspace_).has_value());
  EXPECT_TRUE(RawViewsAreCurrent(*registry_));
}

TEST_F(PlatformHealthTest, AViewsFileBuiltForTheAttachedCatalogIsNotCurrentForFiles) {
  ASSERT_TRUE(RefreshRawViews(*workspace_).has_value());
  EXPECT_EQ(AnalyticsRows("SELECT reads FROM lake.databox.raw_reads"),
            std::vector<std::string>{kReadsFiles});
  {
    auto db = duck::Database::Open(RawViewsPath(*registry_).string());
    ASSERT_TRUE(db.has_value());
    auto conn = duck::Connection::Open(*db);
    ASSERT_TRUE(conn.has_value());
    ASSERT_TRUE(conn->Execute(std::string("CREATE OR REPLACE VIEW databox.raw_reads AS SELECT '") +
                              kReadsThroughCatalog + "' AS reads")
                    .has_value());
  }
  EXPECT_FALSE(RawViewsAreCurrent(*registry_));
  ASSERT_TRUE(EnsureRawViews(*workspace_).has_value());
  EXPECT_TRUE(RawViewsAreCurrent(*registry_));
}

// The example project's model is hand-written: it reads the platform view under the alias the
// other example models name, and nothing in it is generated from the registry.
TEST(ExamplePlatformHealthTest, CommittedModelReadsThePlatformView) {
  const std::string model = Slurp(kExampleModel);
  EXPECT_NE(model.find("name analytics.platform_health"), std::string::npos);
  EXPECT_NE(model.find("FROM polaris_aws.databox.platform_loads"), std::string::npos) << model;
  EXPECT_EQ(model.find("GENERATED"), std::string::npos) << model;
  EXPECT_FALSE(std::regex_search(model, std::regex("raw_[a-z]"))) << model;  // names no source

  auto registry = registry::LoadRegistry(kExampleDir / "databox.toml");
  ASSERT_TRUE(registry.has_value()) << registry.error().ToString();
  ASSERT_EQ(registry->project.analytics.catalog_alias, "polaris_aws");
  std::vector<std::string> routine;
  for (const auto* source : registry->RoutineSources()) routine.push_back(source->name);
  EXPECT_EQ(routine, (std::vector<std::string>{"ebird", "noaa", "usgs", "usgs_earthquakes", "gbif",
                                               "xeno_canto"}));
}

}  // namespace
}  // namespace databox::refresh
