// A full disk (docs/reliability.md, "Round two"). The state folder of a workspace is a real
// small file system: a tmpfs mounted in a private mount namespace of this test process (as root
// directly; otherwise inside a new user namespace), which databox inherits. A filler file leaves
// exactly the free space a case needs, so every write databox makes meets a real ENOSPC.
//  - little space left after a first `run` (64 KB in the reported case; here the steps range
//    from 4 to 48 KB): when preflight fails it leaves nothing behind that breaks a later refresh
//    (before: a 0-byte databox.duckdb every later refresh failed on until it was deleted by hand).
//  - little free space on a second load: whatever fails, the raw views file is never replaced
//    by an incomplete one (before: with 1 MB free, an empty database without views, and a stray
//    .tmp-N.wal, with exit 0), and once space is freed the next refresh succeeds; and every
//    run is in the run history (before: with 1 MB free, the failed run's record was lost).
//  - a first run with 4 KB free says the disk is full, without the catalog's DDL and without
//    SQLite's "disk I/O error".
// If no private mount can be made here, the tests FAIL (never skip) saying why.
#include <gtest/gtest.h>

#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "harness.h"
#include "small_disk.h"
#include "table_checks.h"

namespace databox::reliability {
namespace {

using cli::testing::Contains;

//! Files directly in the state folder whose name holds ".tmp" (a publish's leftovers).
std::vector<std::string> TempLeftovers(const Workspace& ws) {
  std::vector<std::string> found;
  for (const auto& entry : fs::directory_iterator(ws.state_dir())) {
    const std::string name = entry.path().filename().string();
    if (name.find(".tmp") != std::string::npos) found.push_back(name);
  }
  return found;
}

//! Lines of the run history (one per recorded run).
int RecordedRuns(const Workspace& ws) {
  std::ifstream in(ws.state_dir() / "runs.jsonl");
  int lines = 0;
  for (std::string line; std::getline(in, line);) lines += line.empty() ? 0 : 1;
  return lines;
}

class DiskFull : public ::testing::Test {
 protected:
  void TearDown() override {
    Tally& tally = TallyFor("disk_full");
    tally.faults += faults_;
    tally.runs += runs_;
    if (HasFailure()) tally.violations += 1;
  }
  RunResult Refresh(const Workspace& ws) {
    ++runs_;
    return ws.Databox({"refresh", "--skip-transform"});
  }
  //! Every source's raw views answer a query.
  void ExpectEveryRawViewReadable(const Workspace& ws, const std::string& when) {
    for (const auto& s : kRoutineSources) {
      RunResult r = ws.Databox(
          {"query", "SELECT count(*) AS n FROM polaris_aws.raw_" + s + "._dlt_loads", "--json"});
      EXPECT_EQ(r.exit_code, 0) << when << ": raw_" << s << " is not readable\n" << r.err;
    }
  }
  int faults_ = 0;
  int runs_ = 0;
};

TEST_F(DiskFull, PreflightOnAFullDiskLeavesNothingThatBreaksTheNextRefresh) {
  // Which free space makes preflight (and not the catalog before it, nor a load after it) fail
  // depends on the file systems' block use; the steps cover the range, and at least one must
  // reach the preflight failure for the test to mean anything.
  int preflight_failures = 0;
  for (const std::size_t free : {4u << 10, 8u << 10, 16u << 10, 24u << 10, 32u << 10, 48u << 10}) {
    const std::string when = std::to_string(free >> 10) + " KB free";
    Workspace ws("disk_preflight_" + std::to_string(free >> 10));
    ws.WriteRegistry();
    for (const auto& s : kRoutineSources) ws.UseSharedRecordings(s);
    SmallDisk disk(ws.state_dir(), 64 << 20);
    ASSERT_TRUE(disk.error().empty()) << "cannot make a small file system here: " << disk.error();
    // The catalog exists but the analytics database does not yet (a first `run`), so that the
    // refresh gets as far as preflight, which creates the analytics database.
    RunResult run = ws.Databox({"run", "gbif"});
    ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
    const fs::path analytics = ws.state_dir() / "databox.duckdb";
    ASSERT_FALSE(fs::exists(analytics)) << "the case needs preflight to create " << analytics;
    ASSERT_TRUE(disk.LeaveFree(free)) << when;
    ++faults_;
    RunResult full = Refresh(ws);
    ASSERT_NE(full.exit_code, -1) << when << ": databox died from a signal\n" << full.err;
    if (Contains(full.err, "preflight failed; nothing was started") &&
        Contains(full.err, "analytics database")) {
      ++preflight_failures;
      EXPECT_EQ(full.exit_code, 2) << when << "\n" << full.err;
      EXPECT_FALSE(fs::exists(analytics)) << when << ": preflight left the database it created";
    }
    for (const auto& entry : fs::recursive_directory_iterator(ws.state_dir())) {
      if (entry.path().filename() == "filler" || !entry.is_regular_file()) continue;
      EXPECT_FALSE(entry.path().extension() == ".duckdb" && entry.file_size() == 0)
          << when << ": empty database left behind: " << entry.path();
      EXPECT_FALSE(Contains(entry.path().filename().string(), "preflight"))
          << when << ": probe left by preflight: " << entry.path();
    }
    disk.Unfill();
    RunResult freed = Refresh(ws);
    EXPECT_EQ(freed.exit_code, 0) << when << ", after space was freed\n" << freed.out << freed.err;
  }
  EXPECT_GE(preflight_failures, 1) << "no step made preflight fail on the analytics database";
}

TEST_F(DiskFull, RawViewsAreNeverPublishedIncompleteWhateverSpaceIsLeft) {
  Workspace ws("disk_views");
  ws.WriteRegistry();
  for (const auto& s : kRoutineSources) ws.UseSharedRecordings(s);
  SmallDisk disk(ws.state_dir(), 256 << 20);
  ASSERT_TRUE(disk.error().empty()) << "cannot make a small file system here: " << disk.error();
  RunResult first = Refresh(ws);
  ASSERT_EQ(first.exit_code, 0) << first.out << first.err;
  int recorded = RecordedRuns(ws);
  ASSERT_EQ(recorded, 1);
  // From "loads fail" to "only the views file does not fit" (1 MB: the reported case).
  for (const std::size_t free : {1u << 20, 768u << 10, 1536u << 10, 512u << 10}) {
    ++faults_;
    const std::string when = "second load with " + std::to_string(free >> 10) + " KB free";
    ASSERT_TRUE(disk.LeaveFree(free)) << when;
    RunResult r = Refresh(ws);
    ASSERT_NE(r.exit_code, -1) << when << ": databox died from a signal\n" << r.err;
    const std::string all = r.out + r.err;
    if (r.exit_code == 0) {
      EXPECT_FALSE(Contains(all, "raw views")) << when << "\n" << all;
    } else {
      EXPECT_EQ(r.exit_code, 1) << when << "\n" << all;
    }
    EXPECT_TRUE(TempLeftovers(ws).empty())
        << when << ": left " << ::testing::PrintToString(TempLeftovers(ws));
    disk.Unfill();
    // Every run is recorded, also one that filled the disk.
    EXPECT_EQ(RecordedRuns(ws), ++recorded) << when << ": the run was not recorded\n" << r.err;
    // The views file is the old complete one or a new complete one.
    ExpectEveryRawViewReadable(ws, when);
  }
  RunResult freed = Refresh(ws);
  EXPECT_EQ(freed.exit_code, 0) << "after space was freed\n" << freed.out << freed.err;
  ExpectEveryRawViewReadable(ws, "after space was freed");
}

TEST_F(DiskFull, AFullDiskIsNamedAsSuchWithoutTheCatalogDdl) {
  Workspace ws("disk_ddl");
  ws.WriteRegistry();
  ws.UseSharedRecordings("gbif");
  SmallDisk disk(ws.state_dir(), 64 << 20);
  ASSERT_TRUE(disk.error().empty()) << "cannot make a small file system here: " << disk.error();
  // A fresh state folder: the first run creates the catalog, whose DDL does not fit.
  ASSERT_TRUE(disk.LeaveFree(4 << 10));
  ++faults_;
  ++runs_;
  RunResult full = ws.Databox({"run", "gbif"});
  EXPECT_NE(full.exit_code, 0) << full.out << full.err;
  EXPECT_TRUE(Contains(full.err, "the disk is full")) << full.err;
  EXPECT_FALSE(Contains(full.err, "CREATE TABLE")) << full.err;
  EXPECT_FALSE(Contains(full.err, "disk I/O error")) << full.err;
}

}  // namespace
}  // namespace databox::reliability
