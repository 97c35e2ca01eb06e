// Catalog backup drills (docs/catalog_recovery.md), against the built binary and real files,
// checked with pyiceberg (check_tables.py --serve) as an independent reader:
//  - two refreshes of recorded sources (the second merges), the catalog backed up, the catalog
//    file deleted, restored from the backup: every table at the same snapshot with the same rows;
//    the next refresh then leaves the same rows and no duplicate load ids;
//  - backups taken again and again while a refresh commits: each backup's catalog opens in
//    pyiceberg, every table readable, each source's _dlt_loads and _dlt_load_status agreeing
//    (a multi-table commit is in a backup wholly or not at all).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <iostream>
#include <string>
#include <vector>

#include "catalog_drill.h"

namespace databox::reliability {
namespace {

using cli::testing::Contains;
using nlohmann::json;
using Clock = std::chrono::steady_clock;

//! The folder a successful `catalog backup` printed ("... into <folder>").
fs::path PrintedFolder(const std::string& out) {
  const auto at = out.rfind(" into ");
  if (at == std::string::npos) return {};
  std::string folder = out.substr(at + 6);
  while (!folder.empty() && folder.back() == '\n') folder.pop_back();
  return folder;
}

class CatalogBackupDrill : public CatalogDrill {
 protected:
  CatalogBackupDrill() : CatalogDrill("catalog_backup") {}
};

TEST_F(CatalogBackupDrill, RestoreAfterLosingTheCatalogKeepsEveryTable) {
  for (int i = 0; i < 2; ++i) {
    auto refreshed = ws_.Databox(DrillRefreshArgs());
    ASSERT_EQ(refreshed.exit_code, 0) << refreshed.out << refreshed.err;
  }
  const json before = Read(ws_.state_dir());
  ExpectConsistent(before, "before the backup");
  std::map<std::string, std::map<std::string, std::string>> pointers;
  size_t tables = 0;
  for (const auto& s : kDrillSources) {
    pointers[s] = ws_.Tables("raw_" + s);
    tables += pointers[s].size();
  }

  auto backup = ws_.Databox({"catalog", "backup"});
  ASSERT_EQ(backup.exit_code, 0) << backup.out << backup.err;
  const fs::path folder = PrintedFolder(backup.out);
  ASSERT_EQ(folder.parent_path(), ws_.state_dir() / "catalog-backups") << backup.out;

  LoseTheCatalog();
  const auto start = Clock::now();
  auto restored = ws_.Databox({"catalog", "restore", folder.string()});
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  ASSERT_EQ(restored.exit_code, 0) << restored.out << restored.err;
  std::cout << "catalog restore of " << tables << " tables: " << seconds << " s\n";

  // The reader keeps a catalog connection per state folder, and its connection to the deleted
  // file could still read the old content: read the restored catalog through another path.
  const fs::path view = ws_.dir() / "restored-view";
  fs::create_directory_symlink(ws_.state_dir(), view);
  const json after = Read(view);
  EXPECT_EQ(after, before);  // snapshot, parent, load id, rows and row digest of every table
  for (const auto& s : kDrillSources) EXPECT_EQ(ws_.Tables("raw_" + s), pointers[s]) << s;

  auto again = ws_.Databox(DrillRefreshArgs());
  ASSERT_EQ(again.exit_code, 0) << again.out << again.err;
  const json next = Read(view);
  ExpectConsistent(next, "after the refresh on the restored catalog");
  ExpectSameContent(before, next);
}

TEST_F(CatalogBackupDrill, BackupsTakenWhileARefreshCommitsAreConsistent) {
  auto first = ws_.Databox(DrillRefreshArgs());
  ASSERT_EQ(first.exit_code, 0) << first.out << first.err;
  const fs::path live = ws_.dir() / "live-backups";
  std::vector<fs::path> folders;
  for (int round = 0; round < 2; ++round) {
    const pid_t pid = StartDatabox(ws_, DrillRefreshArgs(), ws_.dir() / "refresh.out");
    int status = 0;
    while (waitpid(pid, &status, WNOHANG) == 0) {
      auto backup = ws_.Databox({"catalog", "backup", "--to", live.string()});
      ASSERT_EQ(backup.exit_code, 0) << backup.out << backup.err;
      folders.push_back(PrintedFolder(backup.out));
    }
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
        << cli::testing::Slurp(ws_.dir() / "refresh.out");
  }
  std::cout << folders.size() << " backups taken during 2 refreshes\n";
  ASSERT_GE(folders.size(), 2u);
  for (const fs::path& folder : folders) {
    // pyiceberg opens <state_dir>/catalog.sqlite: give each backup a folder of its own.
    const fs::path state = folder / "state";
    fs::create_directories(state);
    fs::copy_file(folder / "catalog.sqlite", state / "catalog.sqlite");
    ExpectConsistent(Read(state), "backup " + folder.filename().string());
  }
}

}  // namespace
}  // namespace databox::reliability
