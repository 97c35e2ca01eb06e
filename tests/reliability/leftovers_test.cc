// What one writer leaves must not hurt the next, and what one catalog owns must not look like
// another's leftovers:
// - a staging folder in a table's data folder, a temporary file of an unpublished metadata
//   write, and a temporary raw views file (with its WAL) whose process is gone are removed by
//   the next run; those of a live process (here the test
//   itself stands in for a concurrent writer) are left alone;
// - a load package a killed load left unfinished is marked failed, and old packages go;
// - two catalog names over one warehouse keep their table files apart, and maintenance of one
//   never removes the other's.
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "fileio/leftovers_test_support.h"
#include "harness.h"

namespace databox::reliability {
namespace {

//! A folder holding Parquet data files of a loaded table.
fs::path SomeDataFolder(const fs::path& state_dir) {
  for (const auto& entry : fs::recursive_directory_iterator(state_dir / "warehouse")) {
    if (entry.path().extension() == ".parquet") return entry.path().parent_path();
  }
  return {};
}

TEST(CrashConsistencyLeftovers, TheNextRunRemovesWhatADeadWriterLeftAndKeepsALiveOnes) {
  Tally& tally = TallyFor("crash");
  Workspace ws("leftovers");
  ws.UseSharedRecordings("usgs_earthquakes");
  ws.WriteRegistry();
  RunResult first = ws.Databox({"run", "usgs_earthquakes"});
  ++tally.runs;
  ASSERT_EQ(first.exit_code, 0) << first.out << first.err;

  const fs::path data = SomeDataFolder(ws.state_dir());
  ASSERT_FALSE(data.empty()) << "no data files after the first run";
  const std::string dead = std::to_string(fileio::testing::DeadPid());
  const std::string live = std::to_string(getpid());
  const fs::path dead_staging = data / (".databox-staging-" + dead + "-0d0e");
  const fs::path live_staging = data / (".databox-staging-" + live + "-0a1e");
  fs::create_directories(dead_staging);
  fs::create_directories(live_staging);
  std::ofstream(dead_staging / "part_0.parquet") << "cut short";
  fs::path metadata = data;
  while (metadata.has_parent_path() && !fs::is_directory(metadata.parent_path() / "metadata")) {
    metadata = metadata.parent_path();
  }
  metadata = metadata.parent_path() / "metadata";  // the data folder's table's
  const fs::path dead_temp = metadata / (".databox-tmp-" + dead + "-00009-x.metadata.json-AbCdEf");
  const fs::path live_temp = metadata / (".databox-tmp-" + live + "-00010-x.metadata.json-GhIjKl");
  ASSERT_TRUE(fs::is_directory(metadata)) << metadata;
  for (const auto& file : {dead_temp, live_temp}) std::ofstream(file) << "cut short";
  const fs::path dead_views = ws.state_dir() / ("polaris_aws.duckdb.tmp-" + dead);
  const fs::path dead_wal = ws.state_dir() / ("polaris_aws.duckdb.tmp-" + dead + ".wal");
  const fs::path live_views = ws.state_dir() / ("polaris_aws.duckdb.tmp-" + live);
  for (const auto& file : {dead_views, dead_wal, live_views}) std::ofstream(file) << "partial";
  tally.faults += 3;

  RunResult second = ws.Databox({"run", "usgs_earthquakes"});
  ++tally.runs;
  ASSERT_EQ(second.exit_code, 0) << second.out << second.err;
  for (const auto& gone : {dead_staging, dead_temp, dead_views, dead_wal}) {
    if (fs::exists(gone)) {
      ++tally.violations;
      ADD_FAILURE() << gone << " (left by a dead process) is still there";
    }
  }
  for (const auto& kept : {live_staging, live_temp, live_views}) {
    if (!fs::exists(kept)) {
      ++tally.violations;
      ADD_FAILURE() << kept << " (a live process's) was removed";
    }
  }
}

// A load killed while fetching leaves its package "extracting" forever; packages pile up run
// after run. The next load marks the dead one failed and keeps only the newest
// keep_load_packages packages of the source.
TEST(CrashConsistencyLeftovers, ALoadMarksADeadLoadsPackageAndKeepsOnlyTheNewest) {
  Tally& tally = TallyFor("crash");
  Workspace ws("packages");
  ws.UseSharedRecordings("usgs_earthquakes");
  ws.WriteRegistry();
  ws.AddProjectSetting("keep_load_packages = 2");
  const fs::path packages = ws.state_dir() / "loads" / "usgs_earthquakes";
  const fs::path dead = packages / "1000.000001";
  fs::create_directories(dead / "extract");
  std::ofstream(dead / "package.json") << R"({"load_id": "1000.000001", "source": )"
                                       << R"("usgs_earthquakes", "state": "extracting", )"
                                       << R"("extracted": false})";
  ++tally.faults;

  RunResult first = ws.Databox({"run", "usgs_earthquakes"});
  ++tally.runs;
  ASSERT_EQ(first.exit_code, 0) << first.out << first.err;
  EXPECT_TRUE(cli::testing::Contains(first.out + first.err, "interrupted load marked failed"))
      << first.out << first.err;
  EXPECT_TRUE(cli::testing::Contains(cli::testing::Slurp(dead / "package.json"), "interrupted"));
  for (int i = 0; i < 2; ++i) {
    RunResult again = ws.Databox({"run", "usgs_earthquakes"});
    ++tally.runs;
    ASSERT_EQ(again.exit_code, 0) << again.out << again.err;
  }
  int left = 0;
  for (const auto& entry : fs::directory_iterator(packages)) left += entry.is_directory() ? 1 : 0;
  if (left != 2 || fs::exists(dead)) {
    ++tally.violations;
    ADD_FAILURE() << left << " packages left (2 expected), the dead one "
                  << (fs::exists(dead) ? "still there" : "removed");
  }
}

//! Switches the workspace's registry between catalog names (same database, same warehouse).
class CatalogName {
 public:
  explicit CatalogName(const Workspace& ws) : registry_(ws.dir() / "databox.toml") {}
  void Use(const std::string& name) {
    std::string text = cli::testing::Slurp(registry_);
    const std::string line = "name = \"" + current_ + "\"";
    const auto at = text.find(line);
    ASSERT_NE(at, std::string::npos) << "the example registry no longer names " << current_;
    text.replace(at, line.size(), "name = \"" + name + "\"");
    std::ofstream(registry_) << text;
    current_ = name;
  }

 private:
  fs::path registry_;
  std::string current_ = "databox_lake";  //!< the example registry's
};

// Two catalog names over one warehouse (one catalog database, as [project.catalog] name allows):
// each loads the same source, then each removes its orphans with no age gate. Neither may lose a
// row: the other catalog's files must never look like its orphans.
TEST(ConcurrencyCatalogsApart, TwoCatalogNamesOverOneWarehouseNeverRemoveEachOthersFiles) {
  Tally& tally = TallyFor("concurrency");
  Workspace ws("catalogs_apart");
  ws.UseSharedRecordings("usgs_earthquakes");
  ws.WriteRegistry();
  CatalogName catalog(ws);
  const std::string count = "SELECT count(*) AS n FROM polaris_aws.raw_usgs_earthquakes.events";
  const std::vector<std::string> names = {"databox_lake", "second_lake"};
  std::vector<std::vector<std::string>> before;
  for (const auto& name : names) {
    catalog.Use(name);
    RunResult run = ws.Databox({"run", "usgs_earthquakes"});
    ++tally.runs;
    ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
    const auto rows = ws.QueryRows(count);
    ASSERT_TRUE(rows && rows->size() == 1);
    ASSERT_NE(rows->front(), R"({"n":0})");
    before.push_back(*rows);
  }
  ++tally.faults;
  for (const auto& name : names) {
    catalog.Use(name);
    RunResult maintain = ws.Databox({"maintain", "--all", "--remove", "--older-than", "0s"});
    ++tally.runs;
    EXPECT_EQ(maintain.exit_code, 0) << maintain.out << maintain.err;
  }
  for (std::size_t i = 0; i < names.size(); ++i) {
    catalog.Use(names[i]);
    // A run reads the table's files (a merge) and rebuilds the views for this catalog.
    RunResult again = ws.Databox({"run", "usgs_earthquakes"});
    ++tally.runs;
    const auto after = again.exit_code == 0 ? ws.QueryRows(count) : std::nullopt;
    if (!after || *after != before[i]) {
      ++tally.violations;
      ADD_FAILURE() << names[i] << " lost data: " << before[i].front() << " before, "
                    << (after && !after->empty() ? after->front() : again.err) << " after";
    }
  }
}

}  // namespace
}  // namespace databox::reliability
