// Backup folders of the embedded catalog: manifest, retention, restore's refusal of a catalog
// that holds tables, and the errors for no catalog, an unwritable folder, a REST catalog without
// backup_database_url and a backup of the other kind.
#include "platform/catalog_backup.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace databox::platform {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
constexpr int kBusyMs = 10000;

class CatalogBackupTest : public testing::Test {
 protected:
  void SetUp() override {
    std::string templ = (fs::temp_directory_path() / "catalog_backup_XXXXXX").native();
    ASSERT_NE(::mkdtemp(templ.data()), nullptr);
    dir_ = templ;
    project_.catalog.name = "lake";
    project_.catalog.uri = (dir_ / "state/catalog.sqlite").string();
    project_.catalog.backup.dir = dir_ / "backups";
    project_.catalog.backup.keep = 2;
    fs::create_directories(dir_ / "state");
  }
  void TearDown() override {
    fs::permissions(dir_, fs::perms::owner_all);
    fs::remove_all(dir_);
  }
  std::unique_ptr<catalog::sql::JdbcStore> Store() {
    return catalog::sql::JdbcStore::Open(project_.catalog.uri, "lake", kBusyMs).value();
  }

  fs::path dir_;
  registry::ProjectSettings project_;
};

TEST_F(CatalogBackupTest, WritesTheDatabaseAndAManifestOfItsTables) {
  ASSERT_TRUE(
      Store()->InsertTable({{"raw_a"}, "t1"}, "/w/raw_a/t1/metadata/00003-x.metadata.json"));
  auto backup = BackupCatalog(project_, std::nullopt);
  ASSERT_TRUE(backup.has_value()) << backup.error().message;
  EXPECT_EQ(backup->folder.parent_path(), dir_ / "backups");
  EXPECT_TRUE(backup->folder.filename().string().starts_with("catalog-"));
  std::ifstream in(backup->folder / "manifest.json");
  std::stringstream text;
  text << in.rdbuf();
  const auto doc = nlohmann::json::parse(text.str());
  EXPECT_EQ(doc["catalog_name"], "lake");
  EXPECT_THAT(doc["taken_at"].get<std::string>(), testing::MatchesRegex("20[0-9-]+T[0-9:]+Z"));
  ASSERT_EQ(doc["tables"].size(), 1u);
  EXPECT_EQ(doc["tables"][0]["table"], "raw_a.t1");
  EXPECT_EQ(doc["tables"][0]["metadata_location"], "/w/raw_a/t1/metadata/00003-x.metadata.json");
  EXPECT_TRUE(fs::is_regular_file(backup->folder / "catalog.sqlite"));

  auto read = ReadCatalogBackup(backup->folder);
  ASSERT_TRUE(read.has_value()) << read.error().message;
  EXPECT_EQ(read->taken_at, backup->taken_at);
  ASSERT_EQ(read->tables.size(), 1u);
  EXPECT_EQ(read->tables[0].table.ToString(), "raw_a.t1");
}

TEST_F(CatalogBackupTest, KeepsTheNewestBackupsInTheDefaultFolder) {
  ASSERT_TRUE(Store()->InsertTable({{"ns"}, "t"}, "/w/1.metadata.json"));
  std::vector<fs::path> folders;
  for (int i = 0; i < 3; ++i) {
    auto backup = BackupCatalog(project_, std::nullopt);
    ASSERT_TRUE(backup.has_value()) << backup.error().message;
    folders.push_back(backup->folder);
  }
  EXPECT_FALSE(fs::exists(folders[0]));
  EXPECT_TRUE(fs::exists(folders[1]));
  EXPECT_TRUE(fs::exists(folders[2]));
}

TEST_F(CatalogBackupTest, RestoreRefusesACatalogWithTablesUnlessForced) {
  ASSERT_TRUE(Store()->InsertTable({{"ns"}, "old"}, "/w/1.metadata.json"));
  auto backup = BackupCatalog(project_, dir_ / "elsewhere");
  ASSERT_TRUE(backup.has_value()) << backup.error().message;
  ASSERT_TRUE(Store()->InsertTable({{"ns"}, "later"}, "/w/2.metadata.json"));

  auto refused = RestoreCatalog(project_, backup->folder, /*force=*/false);
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().kind, ErrorKind::kConflict);
  EXPECT_THAT(refused.error().message, HasSubstr("--force"));
  EXPECT_EQ(Store()->AllTables()->size(), 2u);

  ASSERT_TRUE(RestoreCatalog(project_, backup->folder, /*force=*/true).has_value());
  auto tables = Store()->AllTables();
  ASSERT_EQ(tables->size(), 1u);
  EXPECT_EQ(tables->front().table.name, "old");

  // Into a missing catalog (the file was lost): no --force needed.
  fs::remove(project_.catalog.uri);
  fs::remove(project_.catalog.uri + "-wal");
  fs::remove(project_.catalog.uri + "-shm");
  ASSERT_TRUE(RestoreCatalog(project_, backup->folder, /*force=*/false).has_value());
  EXPECT_EQ(Store()->AllTables()->size(), 1u);
}

TEST_F(CatalogBackupTest, ClearErrors) {
  auto none = BackupCatalog(project_, std::nullopt);
  ASSERT_FALSE(none.has_value());
  EXPECT_EQ(none.error().kind, ErrorKind::kNotFound);
  EXPECT_THAT(none.error().message, HasSubstr("no catalog yet"));

  ASSERT_TRUE(Store()->InsertTable({{"ns"}, "t"}, "/w/1.metadata.json"));
  if (::geteuid() != 0) {  // root writes into read-only folders
    fs::create_directories(dir_ / "ro");
    fs::permissions(dir_ / "ro", fs::perms::owner_read | fs::perms::owner_exec);
    auto unwritable = BackupCatalog(project_, dir_ / "ro");
    ASSERT_FALSE(unwritable.has_value());
    EXPECT_THAT(unwritable.error().message, HasSubstr(" --to"));
  }
  std::ofstream(dir_ / "file") << "x";
  auto not_a_dir = BackupCatalog(project_, dir_ / "file");
  ASSERT_FALSE(not_a_dir.has_value());
  EXPECT_THAT(not_a_dir.error().message, HasSubstr((dir_ / "file").string()));

  auto no_backup = RestoreCatalog(project_, dir_ / "nothing", false);
  ASSERT_FALSE(no_backup.has_value());
  EXPECT_EQ(no_backup.error().kind, ErrorKind::kNotFound);

  auto sql_backup = BackupCatalog(project_, dir_ / "kept");
  ASSERT_TRUE(sql_backup.has_value()) << sql_backup.error().message;
  project_.catalog.type = registry::CatalogType::kRest;
  auto rest = BackupCatalog(project_, dir_ / "rest");
  ASSERT_FALSE(rest.has_value());
  EXPECT_EQ(rest.error().kind, ErrorKind::kConfig);
  EXPECT_THAT(rest.error().message, HasSubstr("backup_database_url"));
  EXPECT_TRUE(fs::is_empty(dir_ / "rest"));  // no .partial folder left behind
  auto other_kind = RestoreCatalog(project_, sql_backup->folder, /*force=*/true);
  ASSERT_FALSE(other_kind.has_value());
  EXPECT_EQ(other_kind.error().kind, ErrorKind::kConfig);
  EXPECT_THAT(other_kind.error().message, HasSubstr("is of a sql catalog"));
}

}  // namespace
}  // namespace databox::platform
