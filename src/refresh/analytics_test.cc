// Raw views over real Iceberg tables (SQLite catalog, local warehouse, Parquet written by DuckDB),
// read back from fresh DuckDB connections through <alias>.raw_<source>.<table>.
#include "refresh/analytics.h"

#include <gtest/gtest.h>

#include "duck/connection.h"
#include "duck/database.h"
#include "iceberg/data/scan_sql.h"
#include "refresh/analytics_test_support.h"

namespace databox::refresh {
namespace {

using iceberg::Type;
using testing::Field;

class AnalyticsTest : public testing::ProjectFixture {
 protected:
  void CreateT() {
    CreateTable(
        "alpha", "t",
        iceberg::Schema(0, {Field(1, "id", Type::Long()), Field(2, "name", Type::String())}));
  }
};

TEST_F(AnalyticsTest, ViewsReadTheCurrentSnapshotFromAFreshConnection) {
  CreateT();
  Append("alpha", "t", "SELECT * FROM (VALUES (1, 'wren'), (2, 'jay')) v(id, name)");
  Append("alpha", "t", "SELECT 3 AS id, 'owl' AS name");
  ASSERT_TRUE(RefreshRawViews(*workspace_).has_value());
  EXPECT_TRUE(std::filesystem::exists(dir_ / ".databox" / "lake.duckdb"));

  EXPECT_EQ(AnalyticsRows("SELECT id, name FROM lake.raw_alpha.t ORDER BY id"),
            (std::vector<std::string>{"1|wren", "2|jay", "3|owl"}));
}

TEST_F(AnalyticsTest, ViewsArePinnedUntilTheNextRefresh) {
  CreateT();
  Append("alpha", "t", "SELECT 1 AS id, 'wren' AS name");
  ASSERT_TRUE(RefreshRawViews(*workspace_).has_value());
  Append("alpha", "t", "SELECT 2 AS id, 'jay' AS name");
  EXPECT_EQ(AnalyticsRows("SELECT count(*) FROM lake.raw_alpha.t"), std::vector<std::string>{"1"});
  ASSERT_TRUE(RefreshRawViews(*workspace_).has_value());
  EXPECT_EQ(AnalyticsRows("SELECT count(*) FROM lake.raw_alpha.t"), std::vector<std::string>{"2"});
}

TEST_F(AnalyticsTest, AddedColumnReadsNullFromOlderFiles) {
  CreateT();
  Append("alpha", "t", "SELECT 1 AS id, 'wren' AS name");
  Evolve("alpha", "t",
         iceberg::Schema(0, {Field(1, "id", Type::Long()), Field(2, "name", Type::String()),
                             Field(3, "mass", Type::Double())}));
  Append("alpha", "t", "SELECT 2 AS id, 'jay' AS name, 85.5 AS mass");
  ASSERT_TRUE(RefreshRawViews(*workspace_).has_value());

  EXPECT_EQ(AnalyticsRows("SELECT * FROM lake.raw_alpha.t ORDER BY id"),
            (std::vector<std::string>{"1|wren|NULL", "2|jay|85.5"}));
  EXPECT_EQ(
      AnalyticsRows("SELECT column_name, data_type FROM information_schema.columns "
                    "WHERE table_catalog = 'lake' AND table_name = 't' ORDER BY ordinal_position"),
      (std::vector<std::string>{"id|BIGINT", "name|VARCHAR", "mass|DOUBLE"}));
}

TEST_F(AnalyticsTest, EmptyTableIsATypedEmptyView) {
  CreateT();
  ASSERT_TRUE(RefreshRawViews(*workspace_).has_value());
  EXPECT_EQ(AnalyticsRows("SELECT count(*) FROM lake.raw_alpha.t"), std::vector<std::string>{"0"});
  EXPECT_EQ(
      AnalyticsRows("SELECT column_name, data_type FROM information_schema.columns "
                    "WHERE table_catalog = 'lake' AND table_name = 't' ORDER BY ordinal_position"),
      (std::vector<std::string>{"id|BIGINT", "name|VARCHAR"}));
}

TEST_F(AnalyticsTest, DeclaredButNeverLoadedTablesArePlaceholders) {
  ASSERT_TRUE(RefreshRawViews(*workspace_).has_value());
  // The explicit-only source never ran: its table exists with the columns its loads write
  // (a file source: the AVONET layout, then the registry's key and hints).
  const auto columns = AnalyticsRows(
      "SELECT column_name, data_type FROM information_schema.columns "
      "WHERE table_catalog = 'lake' AND table_schema = 'raw_gamma' "
      "AND table_name = 'traits' ORDER BY ordinal_position");
  ASSERT_EQ(columns.size(), 42u);
  EXPECT_EQ(columns[0], "source_scientific_name|VARCHAR");
  EXPECT_EQ(columns[28], "inference|BOOLEAN");
  EXPECT_EQ(columns[37], "loaded_at|TIMESTAMP WITH TIME ZONE");
  EXPECT_EQ(std::vector<std::string>(columns.begin() + 38, columns.end()),
            (std::vector<std::string>{"code|VARCHAR", "mass|DOUBLE", "_dlt_load_id|VARCHAR",
                                      "_dlt_id|VARCHAR"}));
  EXPECT_EQ(AnalyticsRows("SELECT count(*) FROM lake.raw_gamma.traits"),
            std::vector<std::string>{"0"});
  EXPECT_EQ(
      AnalyticsRows(
          "SELECT column_name FROM information_schema.columns WHERE table_catalog = 'lake' "
          "AND table_schema = 'raw_beta' AND table_name = '_dlt_load_status' "
          "ORDER BY ordinal_position"),
      (std::vector<std::string>{"load_id", "schema_name", "status", "inserted_at", "rows_loaded"}));
}

TEST_F(AnalyticsTest, UndeclaredCatalogTablesAreIncluded) {
  CreateTable("alpha", "t__tags",
              iceberg::Schema(0, {Field(1, "value", Type::String()),
                                  Field(2, "_dlt_parent_id", Type::String())}));
  Append("alpha", "t__tags", "SELECT 'red' AS value, 'p1' AS _dlt_parent_id");
  ASSERT_TRUE(RefreshRawViews(*workspace_).has_value());
  EXPECT_EQ(AnalyticsRows("SELECT value, _dlt_parent_id FROM lake.raw_alpha.t__tags"),
            std::vector<std::string>{"red|p1"});
}

TEST_F(AnalyticsTest, AFailedRebuildKeepsThePreviousFile) {
  CreateT();
  Append("alpha", "t", "SELECT 1 AS id, 'wren' AS name");
  ASSERT_TRUE(RefreshRawViews(*workspace_).has_value());
  // A data file vanishing under the table makes the next rebuild fail (DuckDB binds the view).
  auto files =
      iceberg::Table::Load(workspace_->catalog(), workspace_->file_io(), {{"raw_alpha"}, "t"})
          ->LiveDataFiles();
  ASSERT_TRUE(files.has_value());
  ASSERT_EQ(files->size(), 1u);
  Append("alpha", "t", "SELECT 2 AS id, 'jay' AS name");
  std::filesystem::remove(*iceberg::DuckPathOf(files->front().file_path));

  Status rebuilt = RefreshRawViews(*workspace_);
  ASSERT_FALSE(rebuilt.has_value());
  EXPECT_NE(rebuilt.error().message.find("raw_alpha.t"), std::string::npos)
      << rebuilt.error().message;
  for (const auto& entry : std::filesystem::directory_iterator(dir_ / ".databox")) {
    EXPECT_EQ(entry.path().string().find(".tmp-"), std::string::npos) << entry.path();
  }
  // The published file is untouched; its view still names the deleted file, so reading fails,
  // but the schema of the previous build is there.
  EXPECT_EQ(
      AnalyticsRows("SELECT count(*) FROM information_schema.tables WHERE table_catalog = 'lake' "
                    "AND table_name = 't'"),
      std::vector<std::string>{"1"});
}

TEST_F(AnalyticsTest, AnalyticsDatabaseIsWritableAndTheViewsAreReadOnly) {
  CreateT();
  ASSERT_TRUE(RefreshRawViews(*workspace_).has_value());
  auto analytics = OpenAnalytics(*workspace_);
  ASSERT_TRUE(analytics.has_value()) << analytics.error().ToString();
  EXPECT_TRUE(analytics->connection.Execute("CREATE TABLE scratch AS SELECT 1 AS x").has_value());
  EXPECT_FALSE(analytics->connection.Execute("CREATE SCHEMA lake.mine").has_value());
  EXPECT_TRUE(std::filesystem::exists(dir_ / ".databox" / "databox.duckdb"));
}

}  // namespace
}  // namespace databox::refresh
