// Placeholder views are typed as loaded tables: the example registry's routine sources loaded
// from their recordings (AVONET from a synthetic workbook), then every loaded table's view
// compared with the placeholder the same table has before its first load, column for column;
// and the resources nothing was recorded for (ebird taxonomy, region_stats) carry every column.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "common/test_paths.h"
#include "duck/connection.h"
#include "duck/database.h"
#include "duck/quote.h"
#include "load/source_load.h"
#include "platform/workspace.h"
#include "refresh/analytics.h"
#include "registry/registry.h"
#include "source/file_source.h"
#include "sources/avonet/avonet_test_support.h"

namespace databox::refresh {
namespace {

namespace fs = std::filesystem;

class PlaceholderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("databox_placeholder_" + std::to_string(getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    auto loaded = registry::LoadRegistry(fs::path(test_paths::SourceDir()) / "examples" /
                                         "databox" / "databox.toml");
    ASSERT_TRUE(loaded) << loaded.error().message;
    registry_ = std::move(*loaded);
    auto& project = registry_.project;
    project.state_dir = dir_;
    project.catalog.uri = (dir_ / "catalog.sqlite").string();
    project.warehouse.location = (dir_ / "warehouse").string();
    project.analytics.database = dir_ / "databox.duckdb";
    project.http.retries = 0;
    auto ws = platform::OpenWorkspace(registry_);
    ASSERT_TRUE(ws) << ws.error().message;
    workspace_ = std::move(*ws);
  }
  void TearDown() override {
    workspace_.reset();
    fs::remove_all(dir_);
  }

  //! Loads AVONET from a synthetic workbook, pinned as a real snapshot would be.
  void LoadAvonet() {
    const fs::path path = dir_ / "avonet.xlsx";
    source::testing::WriteXlsx(path, "AVONET2_eBird", source::testing::Header(),
                               source::testing::Rows(2));
    auto facts = source::ComputeFileFacts(path);
    ASSERT_TRUE(facts) << facts.error().message;
    registry::Source& avonet = *const_cast<registry::Source*>(registry_.FindSource("avonet"));
    avonet.file->size_bytes = facts->size_bytes;
    avonet.file->md5 = facts->md5;
    avonet.file->row_count = 2;
    load::SourceLoadOptions options;
    options.file = path;
    auto result = load::LoadSource(*workspace_, avonet, options);
    ASSERT_TRUE(result) << result.error().message;
  }

  //! "name|TYPE" per column of `schema`.`table` in the raw views file, sorted.
  std::vector<std::string> ViewColumns(duck::Connection& conn, const std::string& schema,
                                       const std::string& table) {
    auto rows = conn.Query(
        "SELECT column_name || '|' || data_type FROM information_schema.columns WHERE "
        "table_schema = " +
        duck::QuoteLiteral(schema) + " AND table_name = " + duck::QuoteLiteral(table));
    EXPECT_TRUE(rows) << rows.error().message;
    std::vector<std::string> columns;
    if (!rows) return columns;
    for (uint64_t r = 0; r < rows->row_count(); ++r) columns.push_back(*rows->GetString(0, r));
    std::ranges::sort(columns);
    return columns;
  }

  //! The placeholder's columns, as DuckDB names their types, sorted.
  std::vector<std::string> PlaceholderOf(const registry::Source& source, const std::string& table) {
    auto db = duck::Database::Open("", {.threads = 1});
    auto conn = duck::Connection::Open(*db);
    std::string columns;
    for (const auto& [name, type] : PlaceholderColumns(source, table)) {
      columns += (columns.empty() ? "" : ", ") + duck::QuoteIdentifier(name) + " " + type;
    }
    EXPECT_TRUE(conn->Execute("CREATE TABLE p (" + columns + ")").has_value());
    return ViewColumns(*conn, "main", "p");
  }

  fs::path dir_;
  registry::Registry registry_;
  std::unique_ptr<load::Workspace> workspace_;
};

TEST_F(PlaceholderTest, EveryLoadedTableHasExactlyThePlaceholdersColumnsAndTypes) {
  for (const registry::Source* source : registry_.RoutineSources()) {
    auto result = load::LoadSource(*workspace_, *source);
    ASSERT_TRUE(result) << source->name << ": " << result.error().message;
  }
  LoadAvonet();
  ASSERT_TRUE(RefreshRawViews(*workspace_).has_value());
  auto db =
      duck::Database::Open(RawViewsPath(registry_).string(), {.threads = 1, .read_only = true});
  ASSERT_TRUE(db) << db.error().message;
  auto conn = duck::Connection::Open(*db);
  int compared = 0;
  for (const registry::Source& source : registry_.sources) {
    for (const std::string& table : DeclaredTables(source)) {
      const iceberg::TableIdentifier id{{source.Namespace()}, table};
      auto exists = workspace_->catalog().TableExists(id);
      ASSERT_TRUE(exists) << exists.error().message;
      if (!*exists) continue;
      SCOPED_TRACE(source.Namespace() + "." + table);
      EXPECT_EQ(ViewColumns(*conn, source.Namespace(), table), PlaceholderOf(source, table));
      ++compared;
    }
  }
  // Six routine sources' tables (ebird 4, noaa 3, usgs 2, usgs_earthquakes 1, gbif 1,
  // xeno_canto 1) and AVONET's, each with its two load tables.
  EXPECT_EQ(compared, 13 + 7 * 2);
}

TEST_F(PlaceholderTest, ResourcesWithoutRecordingsDeclareEveryColumn) {
  const registry::Source& ebird = *registry_.FindSource("ebird");
  EXPECT_EQ(PlaceholderOf(ebird, "taxonomy"),
            (std::vector<std::string>{
                "_dlt_id|VARCHAR", "_dlt_load_id|VARCHAR", "_loaded_at|TIMESTAMP WITH TIME ZONE",
                "category|VARCHAR", "com_name|VARCHAR", "extinct_year|BIGINT", "extinct|BOOLEAN",
                "family_code|VARCHAR", "family_com_name|VARCHAR", "family_sci_name|VARCHAR",
                "order|VARCHAR", "report_as|VARCHAR", "sci_name|VARCHAR", "species_code|VARCHAR",
                "taxon_order|DOUBLE"}));
  for (const char* child :
       {"taxonomy__banding_codes", "taxonomy__com_name_codes", "taxonomy__sci_name_codes"}) {
    EXPECT_EQ(PlaceholderOf(ebird, child),
              (std::vector<std::string>{"_dlt_id|VARCHAR", "_dlt_list_idx|BIGINT",
                                        "_dlt_parent_id|VARCHAR", "value|VARCHAR"}))
        << child;
  }
  EXPECT_EQ(
      PlaceholderOf(ebird, "region_stats"),
      (std::vector<std::string>{"_dlt_id|VARCHAR", "_dlt_load_id|VARCHAR",
                                "_loaded_at|TIMESTAMP WITH TIME ZONE", "date|VARCHAR", "day|BIGINT",
                                "month|BIGINT", "num_checklists|BIGINT", "num_contributors|BIGINT",
                                "num_species|BIGINT", "region_code|VARCHAR", "year|BIGINT"}));
  for (const char* observations : {"recent_observations", "notable_observations"}) {
    const auto columns = PlaceholderOf(ebird, observations);
    EXPECT_TRUE(std::ranges::find(columns, "exotic_category|VARCHAR") != columns.end())
        << observations;
  }
}

}  // namespace
}  // namespace databox::refresh
