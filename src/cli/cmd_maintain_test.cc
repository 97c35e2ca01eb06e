// `databox maintain` through the built binary: a source loaded from the recordings, stray files
// planted in its table folder with back-dated times, then listing, age-gated removal, snapshot
// expiry and the usage errors. Works on a copy of the example registry in its own folder.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
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
using databox::cli::testing::RunResult;
using databox::cli::testing::Slurp;

const fs::path kExampleDir = fs::path(test_paths::SourceDir()) / "examples" / "databox";
const fs::path kRecordings = fs::path(test_paths::RecordingsDir());
constexpr const char* kTable = "raw_usgs_earthquakes.events";

class MaintainBinary : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("databox_maintain_" + std::to_string(getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    std::string text = Slurp(kExampleDir / "databox.toml");
    const std::string replay = "replay = \"../../fixtures/recordings\"";
    const auto pos = text.find(replay);
    ASSERT_NE(pos, std::string::npos) << "the example registry no longer replays recordings";
    text.replace(pos, replay.size(), "replay = \"" + kRecordings.string() + "\"");
    std::ofstream(dir_ / "databox.toml") << text;
  }
  void TearDown() override { fs::remove_all(dir_); }

  RunResult Databox(const std::vector<std::string>& args) {
    std::vector<std::string> full = {"--config", (dir_ / "databox.toml").string()};
    full.insert(full.end(), args.begin(), args.end());
    return RunDatabox(full, {}, dir_);
  }

  //! The table folder, from the metadata location `databox inspect` prints.
  fs::path TableFolder() {
    RunResult r = Databox({"inspect", kTable, "--json"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    auto json = nlohmann::json::parse(r.out, nullptr, false);
    if (json.is_discarded()) return {};
    std::string location = json["metadata_location"];
    if (location.starts_with("file://")) location = location.substr(7);
    return fs::path(location).parent_path().parent_path();
  }

  size_t Snapshots() {
    RunResult r = Databox({"inspect", kTable, "--json"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    auto json = nlohmann::json::parse(r.out, nullptr, false);
    return json.is_discarded() ? 0 : json["snapshots"].size();
  }

  static void Plant(const fs::path& path, int days_old) {
    fs::create_directories(path.parent_path());
    std::ofstream(path) << "stray";
    struct timespec times[2];
    ::clock_gettime(CLOCK_REALTIME, &times[0]);
    times[0].tv_sec -= static_cast<time_t>(days_old) * 24 * 3600;
    times[1] = times[0];
    ASSERT_EQ(::utimensat(AT_FDCWD, path.c_str(), times, 0), 0);
  }

  fs::path dir_;
};

TEST_F(MaintainBinary, ListsRemovesOldOrphansAndExpiresSnapshots) {
  RunResult run = Databox({"run", "usgs_earthquakes"});
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  const fs::path table = TableFolder();
  ASSERT_TRUE(fs::is_directory(table / "data")) << table;
  const fs::path old_file = table / "data" / "stray-old.parquet";
  const fs::path young_file = table / "metadata" / "stray-young.avro";
  Plant(old_file, 4);
  Plant(young_file, 0);

  RunResult dry = Databox({"maintain", kTable});
  EXPECT_EQ(dry.exit_code, 0) << dry.err;
  EXPECT_TRUE(Contains(dry.out, old_file.string() + "  5 bytes  4d 0h  removable")) << dry.out;
  EXPECT_TRUE(Contains(dry.out, young_file.string() + "  5 bytes  ")) << dry.out;
  EXPECT_TRUE(Contains(dry.out, "younger than 3d")) << dry.out;
  EXPECT_TRUE(Contains(dry.out, std::string(kTable) + ": 2 orphan file(s), 10 bytes; 1 older "
                                                      "than 3d; dry run, nothing removed"))
      << dry.out;
  EXPECT_TRUE(fs::exists(old_file));

  RunResult all = Databox({"maintain", "--all", "--json"});
  EXPECT_EQ(all.exit_code, 0) << all.err;
  auto json = nlohmann::json::parse(all.out, nullptr, false);
  ASSERT_FALSE(json.is_discarded()) << all.out;
  EXPECT_EQ(json["dry_run"], true);
  EXPECT_EQ(json["older_than_seconds"], 3 * 24 * 3600);
  bool seen = false;
  for (const auto& t : json["tables"]) {
    if (t["table"] != kTable) continue;
    seen = true;
    EXPECT_EQ(t["orphan_files"], 2);
    EXPECT_EQ(t["older_than_limit"], 1);
    EXPECT_EQ(t["removed"], 0);
  }
  EXPECT_TRUE(seen) << all.out;

  RunResult removed = Databox({"maintain", kTable, "--remove"});
  EXPECT_EQ(removed.exit_code, 0) << removed.err;
  EXPECT_TRUE(Contains(removed.out, "1 removed")) << removed.out;
  EXPECT_FALSE(fs::exists(old_file));
  EXPECT_TRUE(fs::exists(young_file));

  // A second load adds a snapshot; expiring down to one keeps the table readable.
  ASSERT_EQ(Databox({"run", "usgs_earthquakes"}).exit_code, 0);
  const size_t before = Snapshots();
  ASSERT_GE(before, 2u);
  RunResult expire_dry = Databox({"maintain", kTable, "--expire-snapshots"});
  EXPECT_EQ(expire_dry.exit_code, 0) << expire_dry.err;
  EXPECT_TRUE(Contains(expire_dry.out, "would expire " + std::to_string(before - 1)))
      << expire_dry.out;
  EXPECT_EQ(Snapshots(), before);
  RunResult expired = Databox({"maintain", kTable, "--expire-snapshots", "--retain-last", "1",
                               "--remove", "--older-than", "0"});
  EXPECT_EQ(expired.exit_code, 0) << expired.err;
  EXPECT_TRUE(Contains(expired.out, "expired " + std::to_string(before - 1))) << expired.out;
  EXPECT_EQ(Snapshots(), 1u);
  EXPECT_FALSE(fs::exists(young_file));
  RunResult inspect = Databox({"inspect", kTable});
  EXPECT_EQ(inspect.exit_code, 0) << inspect.err;
}

TEST_F(MaintainBinary, RewriteDeletesFoldsMergeOnReadDeletesKeepingTheRows) {
  // The events resource merges with position deletes.
  const fs::path config = dir_ / "databox.toml";
  std::string text = Slurp(config);
  const std::string events = "name = \"events\"\nrecords_path = \"features\"\n";
  const auto pos = text.find(events);
  ASSERT_NE(pos, std::string::npos) << "the example's usgs events resource changed";
  text.insert(pos + events.size(), "merge_mode = \"merge-on-read\"\n");
  std::ofstream(config) << text;
  ASSERT_EQ(Databox({"run", "usgs_earthquakes"}).exit_code, 0);
  RunResult second = Databox({"run", "usgs_earthquakes"});
  ASSERT_EQ(second.exit_code, 0) << second.out << second.err;

  auto inspect = [&] {
    RunResult r = Databox({"inspect", kTable, "--json"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return nlohmann::json::parse(r.out, nullptr, false);
  };
  const auto before = inspect();
  ASSERT_FALSE(before.is_discarded());
  ASSERT_EQ(before["delete_files"].size(), 1u);  // the reload replaced every event
  const int64_t deleted = before["delete_files"][0]["positions"];
  EXPECT_GT(deleted, 0);

  RunResult dry = Databox({"maintain", kTable, "--rewrite-deletes"});
  EXPECT_EQ(dry.exit_code, 0) << dry.err;
  EXPECT_TRUE(Contains(dry.out, std::string(kTable) +
                                    ": would rewrite 1 data file(s) with 1 "
                                    "delete file(s), " +
                                    std::to_string(deleted) + " deleted row(s)"))
      << dry.out;
  EXPECT_EQ(inspect()["delete_files"].size(), 1u);

  RunResult done = Databox({"maintain", kTable, "--rewrite-deletes", "--remove"});
  EXPECT_EQ(done.exit_code, 0) << done.err;
  EXPECT_TRUE(Contains(done.out, std::string(kTable) + ": rewrote 1 data file(s)")) << done.out;
  const auto after = inspect();
  EXPECT_EQ(after["delete_files"].size(), 0u);
  EXPECT_EQ(after["rows"], before["rows"]);
  EXPECT_EQ(after["snapshots"][0]["operation"], "replace");
  RunResult again = Databox({"maintain", kTable, "--rewrite-deletes"});
  EXPECT_TRUE(Contains(again.out, "no position deletes to rewrite")) << again.out;
}

TEST_F(MaintainBinary, UsageErrorsExitTwo) {
  EXPECT_EQ(Databox({"maintain"}).exit_code, 2);
  EXPECT_EQ(Databox({"maintain", kTable, "--all"}).exit_code, 2);
  EXPECT_EQ(Databox({"maintain", kTable, "--dry-run", "--remove"}).exit_code, 2);
  RunResult bad_age = Databox({"maintain", kTable, "--older-than", "3 weeks"});
  EXPECT_EQ(bad_age.exit_code, 2);
  EXPECT_TRUE(Contains(bad_age.err, "--older-than")) << bad_age.err;
  EXPECT_EQ(Databox({"maintain", kTable, "--retain-last", "2"}).exit_code, 2);
  RunResult help = Databox({"maintain", "--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_TRUE(Contains(help.out, "Usage: databox maintain")) << help.out;
}

}  // namespace
