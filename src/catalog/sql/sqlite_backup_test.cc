// Backups of the catalog database through SQLite's backup API: content, one-file copies,
// restores over an existing database, and consistency while another connection commits.
#include "catalog/sql/sqlite_backup.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <thread>

#include "catalog/sql/jdbc_store.h"

namespace databox::catalog::sql {
namespace {

namespace fs = std::filesystem;
constexpr int kBackupBusyMs = 10000;

class SqliteBackupTest : public testing::Test {
 protected:
  void SetUp() override {
    std::string templ = (fs::temp_directory_path() / "sqlite_backup_XXXXXX").native();
    ASSERT_NE(::mkdtemp(templ.data()), nullptr);
    dir_ = templ;
    live_ = (dir_ / "catalog.sqlite").native();
    store_ = JdbcStore::Open(live_, "cat", kBackupBusyMs).value();
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::vector<TablePointer> TablesIn(const std::string& path) {
    auto tables = JdbcStore::Open(path, "cat", kBackupBusyMs).value()->AllTables();
    EXPECT_TRUE(tables.has_value()) << tables.error().message;
    return tables.value_or(std::vector<TablePointer>{});
  }

  fs::path dir_;
  std::string live_;
  std::unique_ptr<JdbcStore> store_;
};

TEST_F(SqliteBackupTest, CopiesEveryTableIntoOneSelfContainedFile) {
  ASSERT_TRUE(store_->CreateNamespace({"raw_a"}, {}).has_value());
  ASSERT_TRUE(store_->InsertTable({{"raw_a"}, "t1"}, "/w/raw_a/t1/metadata/00000-a.metadata.json"));
  ASSERT_TRUE(store_->InsertTable({{"raw_a"}, "t2"}, "/w/raw_a/t2/metadata/00000-b.metadata.json"));
  const std::string copy = (dir_ / "backup.sqlite").native();
  ASSERT_TRUE(BackupSqliteDatabase(live_, copy, kBackupBusyMs).has_value());
  EXPECT_FALSE(fs::exists(copy + "-wal"));
  const auto tables = TablesIn(copy);
  ASSERT_EQ(tables.size(), 2u);
  EXPECT_EQ(tables[0].table.ToString(), "raw_a.t1");
  EXPECT_EQ(tables[1].metadata_location, "/w/raw_a/t2/metadata/00000-b.metadata.json");

  auto again = BackupSqliteDatabase(live_, copy, kBackupBusyMs);
  ASSERT_FALSE(again.has_value());
  EXPECT_EQ(again.error().kind, ErrorKind::kAlreadyExists);
  auto missing = BackupSqliteDatabase((dir_ / "absent.sqlite").native(),
                                      (dir_ / "other.sqlite").native(), kBackupBusyMs);
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().kind, ErrorKind::kNotFound);
}

TEST_F(SqliteBackupTest, RestoreReplacesTheTargetsContent) {
  ASSERT_TRUE(store_->InsertTable({{"raw_a"}, "t1"}, "/w/1.metadata.json"));
  const std::string copy = (dir_ / "backup.sqlite").native();
  ASSERT_TRUE(BackupSqliteDatabase(live_, copy, kBackupBusyMs).has_value());
  ASSERT_TRUE(store_->InsertTable({{"raw_a"}, "later"}, "/w/2.metadata.json"));

  const std::string fresh = (dir_ / "fresh.sqlite").native();
  ASSERT_TRUE(RestoreSqliteDatabase(copy, fresh, kBackupBusyMs).has_value());
  EXPECT_EQ(TablesIn(fresh).size(), 1u);
  // Over the live database, with our store's connection still open: it sees the backup's rows.
  ASSERT_TRUE(RestoreSqliteDatabase(copy, live_, kBackupBusyMs).has_value());
  auto tables = store_->AllTables();
  ASSERT_TRUE(tables.has_value()) << tables.error().message;
  ASSERT_EQ(tables->size(), 1u);
  EXPECT_EQ(tables->front().table.name, "t1");
}

// A writer swaps two tables together, again and again; every backup taken meanwhile must show
// both at the same version (one commit), never one old and one new.
TEST_F(SqliteBackupTest, BackupsTakenWhileAnotherConnectionCommitsAreConsistent) {
  ASSERT_TRUE(store_->InsertTable({{"ns"}, "a"}, "v0"));
  ASSERT_TRUE(store_->InsertTable({{"ns"}, "b"}, "v0"));
  std::atomic<bool> stop = false;
  std::atomic<int> commits = 0;
  std::thread writer([&] {
    auto writer_store = JdbcStore::Open(live_, "cat", kBackupBusyMs).value();
    for (int v = 1; !stop; ++v) {
      const std::string prev = "v" + std::to_string(v - 1), next = "v" + std::to_string(v);
      const LocationSwap swaps[] = {{{{"ns"}, "a"}, prev, next}, {{{"ns"}, "b"}, prev, next}};
      ASSERT_TRUE(writer_store->SwapMetadataLocations(swaps).has_value());
      ++commits;
    }
  });
  // At least 20 backups, and the writer must have committed while they were taken (on a loaded
  // machine its thread may start late): the backups go on until it has, for 60 s at most.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  const int commits_before = commits.load();
  int backups = 0;
  while (backups < 20 ||
         (commits.load() <= commits_before && std::chrono::steady_clock::now() < deadline)) {
    const int i = backups++;
    const std::string copy = (dir_ / ("backup-" + std::to_string(i) + ".sqlite")).native();
    ASSERT_TRUE(BackupSqliteDatabase(live_, copy, kBackupBusyMs).has_value());
    const auto tables = TablesIn(copy);
    ASSERT_EQ(tables.size(), 2u);
    EXPECT_EQ(tables[0].metadata_location, tables[1].metadata_location) << "backup " << i;
  }
  const int commits_during = commits.load() - commits_before;
  stop = true;
  writer.join();
  EXPECT_GT(commits_during, 0) << "the writer committed nothing while " << backups
                               << " backups were taken";
}

}  // namespace
}  // namespace databox::catalog::sql
