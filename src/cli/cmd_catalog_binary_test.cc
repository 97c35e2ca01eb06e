// `databox catalog backup`, `restore` and `recover` run as a user would: the example registry
// (recorded responses), a real load into the embedded SQLite catalog, the catalog file deleted
// and restored or recovered from the warehouse.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "cli/binary_test_support.h"
#include "common/test_paths.h"

namespace {

namespace fs = std::filesystem;
namespace test_paths = databox::test_paths;
using databox::cli::testing::Contains;
using databox::cli::testing::RunDatabox;
using databox::cli::testing::Slurp;

class CatalogBackupBinaryTest : public testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("databox_cli_backup_" + std::to_string(getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    std::string registry = Slurp(test_paths::SourceDir() + "/examples/databox/databox.toml");
    const std::string replay = "replay = \"../../fixtures/recordings\"";
    const auto pos = registry.find(replay);
    ASSERT_NE(pos, std::string::npos) << "the example registry no longer replays recordings";
    registry.replace(pos, replay.size(), "replay = \"" + test_paths::RecordingsDir() + "\"");
    config_ = (dir_ / "databox.toml").string();
    std::ofstream(config_) << registry;
  }
  void TearDown() override { fs::remove_all(dir_); }

  databox::cli::testing::RunResult Databox(std::vector<std::string> args) {
    args.insert(args.begin(), {"--config", config_});
    return RunDatabox(args, {}, dir_);
  }
  //! The folder a successful backup printed ("... into <folder>").
  static fs::path PrintedFolder(const std::string& out) {
    const auto at = out.rfind(" into ");
    if (at == std::string::npos) return {};
    std::string folder = out.substr(at + 6);
    while (!folder.empty() && folder.back() == '\n') folder.pop_back();
    return folder;
  }

  fs::path dir_;
  std::string config_;
};

TEST_F(CatalogBackupBinaryTest, BackupThenRestoreIntoALostCatalog) {
  auto none = Databox({"catalog", "backup"});
  EXPECT_EQ(none.exit_code, 1) << none.out << none.err;
  EXPECT_TRUE(Contains(none.err, "there is no catalog yet")) << none.err;

  auto run = Databox({"run", "usgs"});
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  auto backup = Databox({"catalog", "backup", "--to", (dir_ / "backups").string()});
  ASSERT_EQ(backup.exit_code, 0) << backup.out << backup.err;
  const fs::path folder = PrintedFolder(backup.out);
  ASSERT_EQ(folder.parent_path(), dir_ / "backups") << backup.out;
  const auto manifest = nlohmann::json::parse(Slurp(folder / "manifest.json"));
  std::vector<std::string> tables;
  for (const auto& t : manifest["tables"]) {
    tables.push_back(t["table"]);
    EXPECT_TRUE(fs::is_regular_file(t["metadata_location"].get<std::string>())) << t.dump();
  }
  EXPECT_NE(std::ranges::find(tables, "raw_usgs.sites"), tables.end()) << manifest.dump(2);
  EXPECT_TRUE(Contains(backup.out, std::to_string(tables.size()) + " tables")) << backup.out;

  auto refused = Databox({"catalog", "restore", folder.string()});
  EXPECT_EQ(refused.exit_code, 1) << refused.out << refused.err;
  EXPECT_TRUE(Contains(refused.err, "is not empty")) << refused.err;
  EXPECT_TRUE(Contains(refused.err, "--force")) << refused.err;

  for (const char* suffix : {"", "-wal", "-shm"}) {
    fs::remove(dir_ / ".databox" / (std::string("catalog.sqlite") + suffix));
  }
  auto restored = Databox({"catalog", "restore", folder.string()});
  ASSERT_EQ(restored.exit_code, 0) << restored.out << restored.err;
  EXPECT_TRUE(Contains(restored.out, std::to_string(tables.size()) + " tables")) << restored.out;
  // The restored catalog points every table at the metadata file the backup recorded.
  auto second = Databox({"catalog", "backup", "--to", (dir_ / "after").string()});
  ASSERT_EQ(second.exit_code, 0) << second.out << second.err;
  const auto after = nlohmann::json::parse(Slurp(PrintedFolder(second.out) / "manifest.json"));
  EXPECT_EQ(after["tables"], manifest["tables"]);
  // And it is the live catalog again: a load commits on top of it.
  auto again = Databox({"run", "usgs"});
  EXPECT_EQ(again.exit_code, 0) << again.out << again.err;
}

TEST_F(CatalogBackupBinaryTest, RefreshBacksUpWhenAskedAndKeepsTheNewest) {
  std::string registry = Slurp(config_);
  const std::string catalog = "name = \"databox_lake\"\n";
  const auto pos = registry.find(catalog);
  ASSERT_NE(pos, std::string::npos) << "the example registry names its catalog differently";
  registry.insert(pos + catalog.size(), "backup_after_refresh = true\nbackup_keep = 1\n");
  std::ofstream(config_) << registry;
  std::vector<fs::path> folders;
  for (int i = 0; i < 2; ++i) {
    auto refreshed = Databox({"refresh", "--source", "usgs", "--skip-transform"});
    ASSERT_EQ(refreshed.exit_code, 0) << refreshed.out << refreshed.err;
    folders.push_back(PrintedFolder(refreshed.err));
    ASSERT_EQ(folders.back().parent_path(), dir_ / ".databox" / "catalog-backups") << refreshed.err;
    EXPECT_TRUE(fs::exists(folders.back() / "manifest.json"));
  }
  ASSERT_NE(folders[0], folders[1]);
  EXPECT_FALSE(fs::exists(folders[0])) << "backup_keep = 1 removes the older backup";
  auto manifest = nlohmann::json::parse(Slurp(folders[1] / "manifest.json"));
  EXPECT_FALSE(manifest["tables"].empty()) << manifest.dump(2);
}

TEST_F(CatalogBackupBinaryTest, HelpDocumentsBackupAndRestore) {
  auto help = Databox({"catalog", "--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_TRUE(Contains(help.out, "pg_dump / pg_restore")) << help.out;
  EXPECT_TRUE(Contains(help.out, "is not supported")) << help.out;
  for (const char* sub : {"backup", "restore", "recover", "bootstrap"}) {
    EXPECT_TRUE(Contains(help.out, std::string("  ") + sub)) << sub << "\n" << help.out;
  }
  auto backup = Databox({"catalog", "backup", "--help"});
  EXPECT_TRUE(Contains(backup.out, "--to")) << backup.out;
  EXPECT_TRUE(Contains(backup.out, "SQLite's online backup API")) << backup.out;
  EXPECT_TRUE(Contains(backup.out, "pg_dump --format=custom")) << backup.out;
  EXPECT_TRUE(Contains(backup.out, "backup_database_url")) << backup.out;
  auto restore = Databox({"catalog", "restore", "--help"});
  EXPECT_TRUE(Contains(restore.out, "--force")) << restore.out;
  EXPECT_TRUE(Contains(restore.out, "--roll-forward")) << restore.out;
  EXPECT_TRUE(Contains(restore.out, "pg_restore")) << restore.out;
  auto missing = Databox({"catalog", "restore"});
  EXPECT_EQ(missing.exit_code, 2) << missing.err;
  auto recover = Databox({"catalog", "recover", "--help"});
  for (const char* flag : {"--from-warehouse", "--apply", "--include-unconfirmed", "--roll-forward",
                           "--json", "_databox/commits", "--tables-under", "register endpoint",
                           "After each REST commit databox writes the same commit"}) {
    EXPECT_TRUE(Contains(recover.out, flag)) << flag << "\n" << recover.out;
  }
}

TEST_F(CatalogBackupBinaryTest, RecoverRebuildsALostCatalogFromTheWarehouse) {
  auto run = Databox({"run", "usgs"});
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  for (const char* suffix : {"", "-wal", "-shm"}) {
    fs::remove(dir_ / ".databox" / (std::string("catalog.sqlite") + suffix));
  }
  auto unsaid = Databox({"catalog", "recover"});
  EXPECT_EQ(unsaid.exit_code, 2) << unsaid.out << unsaid.err;
  EXPECT_TRUE(Contains(unsaid.err, "--from-warehouse")) << unsaid.err;

  auto dry = Databox({"catalog", "recover", "--from-warehouse"});
  ASSERT_EQ(dry.exit_code, 0) << dry.out << dry.err;
  EXPECT_TRUE(Contains(dry.out, "raw_usgs.sites: would register 0000")) << dry.out;
  EXPECT_TRUE(Contains(dry.out, "confirmed by commit marker")) << dry.out;
  EXPECT_TRUE(Contains(dry.out, "dry run: the catalog was not changed")) << dry.out;
  EXPECT_FALSE(fs::exists(dir_ / ".databox" / "catalog.sqlite"));

  auto applied = Databox({"catalog", "recover", "--from-warehouse", "--apply"});
  ASSERT_EQ(applied.exit_code, 0) << applied.out << applied.err;
  EXPECT_TRUE(Contains(applied.out, "raw_usgs.sites: registered")) << applied.out;
  auto listed = Databox({"catalog", "list"});
  EXPECT_TRUE(Contains(listed.out, "raw_usgs.sites")) << listed.out << listed.err;
  auto again = Databox({"catalog", "recover", "--from-warehouse", "--json"});
  ASSERT_EQ(again.exit_code, 0) << again.out << again.err;
  const auto report = nlohmann::json::parse(again.out);
  ASSERT_FALSE(report["tables"].empty());
  for (const auto& t : report["tables"]) EXPECT_EQ(t["action"], "up to date") << t.dump();
  // The recovered catalog is the live one: a load commits on top of it.
  auto next = Databox({"run", "usgs"});
  EXPECT_EQ(next.exit_code, 0) << next.out << next.err;
}

}  // namespace
