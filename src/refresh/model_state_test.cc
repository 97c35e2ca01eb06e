#include "refresh/model_state.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include "duck/connection.h"
#include "duck/database.h"

namespace databox::refresh {
namespace {

namespace fs = std::filesystem;

Status RunSql(const fs::path& path, const std::string& sql) {
  DATABOX_ASSIGN_OR_RETURN(auto db, duck::Database::Open(path.string()));
  DATABOX_ASSIGN_OR_RETURN(auto conn, duck::Connection::Open(db));
  return conn.Execute(sql);
}

// The tables of SQLMesh's state that ReadModelBuilds reads, as SQLMesh 0.236 lays them out.
TEST(ModelState, ReadsProdModelsTheirNewestBuildAndTheirRows) {
  const fs::path dir = fs::temp_directory_path() / ("model_state_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path state = dir / "sqlmesh_state.duckdb", analytics = dir / "db.duckdb";
  ASSERT_TRUE(RunSql(state, R"(
    CREATE SCHEMA sqlmesh;
    CREATE TABLE sqlmesh._environments (name VARCHAR, snapshots VARCHAR);
    INSERT INTO sqlmesh._environments VALUES ('prod',
      '[{"name": "\"db\".\"analytics\".\"a\"", "node_type": "model"},
        {"name": "\"db\".\"analytics\".\"b\"", "node_type": "model"}]');
    CREATE TABLE sqlmesh._intervals (name VARCHAR, created_ts BIGINT, is_dev BOOLEAN);
    INSERT INTO sqlmesh._intervals VALUES ('"db"."analytics"."a"', 1796383565414, false),
      ('"db"."analytics"."a"', 1796383637383, false), ('"db"."analytics"."a"', 1796383999999, true);
  )"));
  ASSERT_TRUE(RunSql(analytics,
                     "CREATE SCHEMA analytics; CREATE TABLE analytics.a AS "
                     "SELECT * FROM range(3)"));

  auto builds = ReadModelBuilds(state, analytics);
  ASSERT_TRUE(builds) << builds.error().message;
  ASSERT_EQ(builds->size(), 2u);
  EXPECT_EQ(builds->at("analytics.a").built_at, "2026-12-04T11:27:17.383Z");
  EXPECT_EQ(builds->at("analytics.a").rows, 3);
  EXPECT_EQ(builds->at("analytics.b").built_at, "");  // never built: no interval, no table
  EXPECT_EQ(builds->at("analytics.b").rows, std::nullopt);

  auto none = ReadModelBuilds(dir / "missing.duckdb", analytics);
  ASSERT_TRUE(none);
  EXPECT_TRUE(none->empty());
  fs::remove_all(dir);
}

}  // namespace
}  // namespace databox::refresh
