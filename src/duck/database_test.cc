#include "duck/database.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "common/test_paths.h"
#include "duck/connection.h"
#include "duck/test_support.h"
#include "duck/version.h"

namespace databox::duck {
namespace {

using ::testing::HasSubstr;

std::string Setting(Connection& conn, const std::string& name) {
  auto r = conn.Query("SELECT current_setting('" + name + "')::VARCHAR");
  EXPECT_TRUE(r.has_value()) << (r ? "" : r.error().ToString());
  auto v = r->GetString(0, 0);
  EXPECT_TRUE(v.has_value());
  return v.value_or("");
}

TEST(DatabaseTest, LibraryVersionIsPinned) { EXPECT_EQ(LibraryVersion(), "v1.5.5"); }

TEST(DatabaseTest, InMemoryOpenAppliesDataboxSettings) {
  const DatabaseOptions options{.extension_directory = "/nonexistent/ext-dir",
                                .threads = 1,
                                .memory_limit = "256MB",
                                .settings = {{"TimeZone", "UTC"}}};
  auto db = Database::Open("", options);
  ASSERT_TRUE(db.has_value()) << db.error().ToString();
  auto conn = Connection::Open(*db);
  ASSERT_TRUE(conn.has_value()) << conn.error().ToString();
  EXPECT_EQ(Setting(*conn, "autoinstall_known_extensions"), "false");
  EXPECT_EQ(Setting(*conn, "autoload_known_extensions"), "false");
  EXPECT_EQ(Setting(*conn, "extension_directory"), "/nonexistent/ext-dir");
  EXPECT_EQ(Setting(*conn, "threads"), "1");
  EXPECT_EQ(Setting(*conn, "TimeZone"), "UTC");
  // 256MB as DuckDB prints it (it reports in MiB/GiB units).
  EXPECT_THAT(Setting(*conn, "memory_limit"), HasSubstr("MiB"));
}

TEST(DatabaseTest, DefaultExtensionDirectoryIsTheProjectDeps) {
  EXPECT_EQ(DefaultExtensionDirectory(), test_paths::SourceDir() + "/.deps/duckdb/extensions");
  auto mem = testing::OpenMemoryDb();
  EXPECT_EQ(Setting(mem.conn, "extension_directory"), DefaultExtensionDirectory());
}

TEST(DatabaseTest, FileDatabasePersistsAcrossReopen) {
  testing::TempDir dir;
  const std::string path = dir.File("state.duckdb");
  {
    auto db = Database::Open(path);
    ASSERT_TRUE(db.has_value()) << db.error().ToString();
    auto conn = Connection::Open(*db);
    ASSERT_TRUE(conn.has_value());
    ASSERT_TRUE(conn->Execute("CREATE TABLE t AS SELECT 42 AS answer"));
  }
  auto db = Database::Open(path, DatabaseOptions{.read_only = true});
  ASSERT_TRUE(db.has_value()) << db.error().ToString();
  auto conn = Connection::Open(*db);
  ASSERT_TRUE(conn.has_value());
  auto r = conn->Query("SELECT answer FROM t");
  ASSERT_TRUE(r.has_value()) << r.error().ToString();
  EXPECT_EQ(r->GetInt64(0, 0).value(), 42);
  auto write = conn->Execute("INSERT INTO t VALUES (1)");
  ASSERT_FALSE(write.has_value());
  EXPECT_THAT(write.error().message, HasSubstr("read-only"));
}

TEST(DatabaseTest, OpenFailureCarriesDuckDbMessage) {
  auto db = Database::Open("/nonexistent-dir/sub/x.duckdb");
  ASSERT_FALSE(db.has_value());
  EXPECT_THAT(db.error().message, HasSubstr("/nonexistent-dir/sub/x.duckdb"));
  EXPECT_THAT(db.error().message, HasSubstr("opening DuckDB database"));
}

TEST(DatabaseTest, UnknownSettingIsAConfigError) {
  DatabaseOptions options;
  options.settings = {{"no_such_setting_xyz", "1"}};
  auto db = Database::Open("", options);
  ASSERT_FALSE(db.has_value());
  EXPECT_EQ(db.error().kind, ErrorKind::kConfig);
  EXPECT_THAT(db.error().message, HasSubstr("no_such_setting_xyz"));
}

TEST(DatabaseTest, AutoloadCannotBeTurnedBackOn) {
  DatabaseOptions options;
  options.settings = {{"autoload_known_extensions", "true"}};
  auto db = Database::Open("", options);
  ASSERT_FALSE(db.has_value());
  EXPECT_EQ(db.error().kind, ErrorKind::kConfig);
}

TEST(DatabaseTest, HandlesAreMovable) {
  auto mem = testing::OpenMemoryDb();
  Database moved_db = std::move(mem.db);
  Connection moved_conn = std::move(mem.conn);
  auto r = moved_conn.Query("SELECT 1");
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->GetInt64(0, 0).value(), 1);
  EXPECT_NE(moved_db.handle(), nullptr);
}

TEST(ConnectionTest, ExecuteErrorCarriesDuckDbMessageAndKind) {
  auto mem = testing::OpenMemoryDb();
  auto missing = mem.conn.Execute("SELECT * FROM no_such_table");
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().kind, ErrorKind::kNotFound);
  EXPECT_THAT(missing.error().message, HasSubstr("no_such_table"));
  auto syntax = mem.conn.Query("SELEC 1");
  ASSERT_FALSE(syntax.has_value());
  EXPECT_EQ(syntax.error().kind, ErrorKind::kData);
  EXPECT_THAT(syntax.error().message, HasSubstr("syntax error"));
}

TEST(ConnectionTest, ExecuteRunsSeveralStatements) {
  auto mem = testing::OpenMemoryDb();
  ASSERT_TRUE(mem.conn.Execute("CREATE TABLE a(x INT); INSERT INTO a VALUES (1), (2);"));
  auto r = mem.conn.Query("SELECT sum(x) FROM a");
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->GetInt64(0, 0).value(), 3);
}

TEST(ConnectionTest, QueryEachReturnsEveryStatementsResult) {
  auto mem = testing::OpenMemoryDb();
  auto results = mem.conn.QueryEach("SELECT 1 AS a; CREATE TABLE t(x INT); SELECT 2 AS b, 3 AS c");
  ASSERT_TRUE(results.has_value()) << results.error().ToString();
  ASSERT_EQ(results->size(), 3u);
  EXPECT_EQ((*results)[0].column_name(0), "a");
  EXPECT_EQ((*results)[0].GetInt64(0, 0).value(), 1);
  EXPECT_EQ((*results)[2].column_count(), 2u);
  EXPECT_EQ((*results)[2].GetInt64(1, 0).value(), 3);
}

TEST(ConnectionTest, QueryEachNamesTheStatementThatFailed) {
  auto mem = testing::OpenMemoryDb();
  auto failed = mem.conn.QueryEach("SELECT 1; SELECT * FROM no_such_table; SELECT 3");
  ASSERT_FALSE(failed.has_value());
  EXPECT_THAT(failed.error().message, HasSubstr("statement 2 of 3"));
  EXPECT_THAT(failed.error().message, HasSubstr("no_such_table"));
  auto unparsable = mem.conn.QueryEach("SELEC 1");
  ASSERT_FALSE(unparsable.has_value());
  EXPECT_THAT(unparsable.error().message, HasSubstr("syntax error"));
}

TEST(ConnectionTest, QueryEachAtomicallyRollsBackEveryStatementWhenOneFails) {
  auto mem = testing::OpenMemoryDb();
  std::vector<int64_t> seen;
  auto failed = mem.conn.QueryEachAtomically(
      "SELECT 42; CREATE TABLE y AS SELECT 1 AS x; SELECT error('boom')",
      [&](QueryResult r) { seen.push_back(static_cast<int64_t>(r.column_count())); });
  ASSERT_FALSE(failed.has_value());
  EXPECT_THAT(failed.error().message, HasSubstr("statement 3 of 3 failed"));
  EXPECT_THAT(failed.error().message, HasSubstr("boom"));
  EXPECT_EQ(seen.size(), 2u);  // the results before the failure were handed over
  auto y = mem.conn.Query("SELECT count(*) FROM duckdb_tables() WHERE table_name = 'y'");
  ASSERT_TRUE(y.has_value());
  EXPECT_EQ(y->GetInt64(0, 0).value(), 0);
  // The connection is usable afterwards, and a query that succeeds is committed.
  ASSERT_TRUE(mem.conn.QueryEachAtomically("CREATE TABLE z AS SELECT 1 AS x; SELECT * FROM z",
                                           [](QueryResult) {}));
  EXPECT_EQ(mem.conn.Query("SELECT count(*) FROM z")->GetInt64(0, 0).value(), 1);
}

TEST(ConnectionTest, QueryEachAtomicallyRunsExplicitTransactionsAsWritten) {
  auto mem = testing::OpenMemoryDb();
  ASSERT_TRUE(mem.conn.QueryEachAtomically("BEGIN; CREATE TABLE t AS SELECT 1 AS x; COMMIT",
                                           [](QueryResult) {}));
  EXPECT_EQ(mem.conn.Query("SELECT count(*) FROM t")->GetInt64(0, 0).value(), 1);
}

}  // namespace
}  // namespace databox::duck
