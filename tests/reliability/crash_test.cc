// Crash consistency (issue #8, part 4, the lighter version): `databox run noaa` is killed with
// SIGKILL at random moments over the whole length of a run. After every kill each raw_noaa table
// must be at a committed snapshot that pyiceberg reads, with no duplicate keys, every data table
// either absent or holding exactly the keys of a clean load, and _dlt_loads and _dlt_load_status
// (committed together with the data) holding the same number of rows. The next run (alternately
// `--resume` and a plain run) must complete, leaving exactly the clean load's keys.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <iostream>
#include <map>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "harness.h"

namespace databox::reliability {
namespace {

using cli::testing::Contains;
using nlohmann::json;

constexpr int kKills = 20;
constexpr auto kTimeBudget = std::chrono::seconds(420);
const std::vector<std::string> kKeyColumns = {"daily_weather=date,datatype,station", "stations=id",
                                              "datasets=id"};
const std::vector<std::string> kDataTables = {"daily_weather", "stations", "datasets"};

//! Starts `databox --config <registry> run noaa` without waiting; output goes to files.
pid_t StartRun(const Workspace& ws) {
  const std::string config = (ws.dir() / "databox.toml").string();
  const std::string out = (ws.dir() / "killed.out").string();
  pid_t pid = fork();
  if (pid == 0) {
    int fd = open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    dup2(fd, 1);
    dup2(fd, 2);
    if (chdir(ws.dir().c_str()) != 0) _exit(127);
    execl(DATABOX_BINARY, DATABOX_BINARY, "--config", config.c_str(), "run", "noaa",
          static_cast<char*>(nullptr));
    _exit(127);
  }
  return pid;
}

//! The state of the newest load package of noaa ("none" if there is none).
std::string NewestPackageState(const Workspace& ws) {
  const fs::path loads = ws.state_dir() / "loads" / "noaa";
  if (!fs::exists(loads)) return "none";
  fs::path newest;
  for (const auto& entry : fs::directory_iterator(loads)) {
    if (newest.empty() || entry.path().filename() > newest.filename()) newest = entry.path();
  }
  const json package = json::parse(cli::testing::Slurp(newest / "package.json"), nullptr, false);
  if (package.is_discarded()) return "no package.json";
  return package.value("state", "?");
}

class CrashConsistency : public ::testing::Test {
 protected:
  void TearDown() override {
    Tally& tally = TallyFor("crash");
    tally.faults += kills_;
    tally.runs += runs_;
    tally.violations += violations_ + (HasFailure() && violations_ == 0 ? 1 : 0);
  }

  //! Checks the invariants on what pyiceberg reads; `complete` = a run just succeeded.
  //! Metadata files are immutable, so a catalog state (every table's metadata location) that
  //! was already read and found consistent is not read again.
  void CheckTables(const Workspace& ws, const json& reference, bool complete,
                   const std::string& when) {
    const auto catalog_state = ws.Tables("raw_noaa");
    if (catalog_state == last_verified_ && !catalog_state.empty()) {
      ++reads_skipped_;
      return;
    }
    const int violations_before = violations_;
    CheckWithPyiceberg(ws, reference, complete, when);
    if (violations_ == violations_before) last_verified_ = catalog_state;
  }

  void CheckWithPyiceberg(const Workspace& ws, const json& reference, bool complete,
                          const std::string& when) {
    ReaderView view = ReadWithPyiceberg(ws.state_dir(), "raw_noaa", kKeyColumns);
    if (!view.error.empty()) {
      ++violations_;
      ADD_FAILURE() << when << ": pyiceberg cannot read raw_noaa: " << view.error;
      return;
    }
    for (const auto& table : kDataTables) {
      if (!view.tables.contains(table)) {
        if (complete) {
          ++violations_;
          ADD_FAILURE() << when << ": table " << table << " missing";
        }
        continue;
      }
      const json& entry = view.tables[table];
      if (entry["duplicate_keys"] != 0 || entry["keys"] != reference[table]["keys"]) {
        ++violations_;
        ADD_FAILURE() << when << ": " << table << " has " << entry["rows"] << " rows, "
                      << entry["duplicate_keys"] << " duplicate keys; expected the clean load's "
                      << reference[table]["rows"] << " keys";
      }
    }
    const auto rows = [&](const char* t) {
      return view.tables.contains(t) ? view.tables[t]["rows"].get<int>() : 0;
    };
    if (rows("_dlt_loads") != rows("_dlt_load_status")) {
      ++violations_;
      ADD_FAILURE() << when << ": _dlt_loads has " << rows("_dlt_loads")
                    << " rows but _dlt_load_status " << rows("_dlt_load_status");
    }
    if (complete && rows("_dlt_load_status") == 0) {
      ++violations_;
      ADD_FAILURE() << when << ": a successful run left no _dlt_load_status row";
    }
  }

  std::map<std::string, std::string> last_verified_;  //!< catalog state last read and found ok
  int reads_skipped_ = 0;
  int kills_ = 0;
  int runs_ = 0;
  int violations_ = 0;
};

TEST_F(CrashConsistency, SigkillAtRandomMomentsLeavesReadableCommittedTablesAndRecovers) {
  // Reference: one clean load, timed, and its keys as pyiceberg reads them.
  Workspace clean("crash_reference");
  clean.UseSharedRecordings("noaa");
  clean.WriteRegistry();
  const auto t0 = std::chrono::steady_clock::now();
  RunResult first = clean.Databox({"run", "noaa"});
  const auto clean_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0)
          .count();
  ++runs_;
  ASSERT_EQ(first.exit_code, 0) << first.out << first.err;
  ReaderView reference = ReadWithPyiceberg(clean.state_dir(), "raw_noaa", kKeyColumns);
  ASSERT_TRUE(reference.error.empty()) << reference.error;
  for (const auto& table : kDataTables) {
    ASSERT_TRUE(reference.tables.contains(table)) << table;
    ASSERT_GT(reference.tables[table]["rows"], 0) << table;
  }

  Workspace ws("crash");
  ws.UseSharedRecordings("noaa");
  ws.WriteRegistry();
  // Kill moments spread over the whole run (extract, normalize, stage, commit), at least
  // 10-400 ms. The seed is printed so a failure can be replayed.
  const auto seed = std::random_device{}();
  std::mt19937 rng(seed);
  const int max_delay = std::max<int>(400, static_cast<int>(clean_ms));
  std::uniform_int_distribution<int> delay_ms(10, max_delay);
  std::cout << "crash: seed " << seed << ", clean run " << clean_ms << " ms, kill after 10-"
            << max_delay << " ms" << std::endl;

  std::map<std::string, int> killed_in;  // newest package state after each kill
  const auto deadline = std::chrono::steady_clock::now() + kTimeBudget;
  // Runs that finish before their kill moment do not count as kills; at most twice the attempts.
  for (int i = 0; kills_ < kKills && i < 2 * kKills && std::chrono::steady_clock::now() < deadline;
       ++i) {
    const int delay = delay_ms(rng);
    pid_t pid = StartRun(ws);
    ASSERT_GT(pid, 0);
    std::this_thread::sleep_for(std::chrono::milliseconds(delay));
    const bool still_running = waitpid(pid, nullptr, WNOHANG) == 0;
    if (still_running) kill(pid, SIGKILL);
    int status = 0;
    if (still_running) waitpid(pid, &status, 0);
    ++runs_;
    const std::string state = still_running ? NewestPackageState(ws) : "finished before kill";
    ++killed_in[state];
    if (still_running) ++kills_;
    const std::string when =
        "kill " + std::to_string(i + 1) + " after " + std::to_string(delay) + " ms (" + state + ")";
    CheckTables(ws, reference.tables, /*complete=*/false, when);

    // Recovery: alternately resume the interrupted package and start afresh.
    RunResult next;
    if (i % 2 == 0) {
      next = ws.Databox({"run", "noaa", "--resume"});
      ++runs_;
      if (next.exit_code != 0 && Contains(next.err, "no load package to resume")) {
        next = ws.Databox({"run", "noaa"});
        ++runs_;
      }
    } else {
      next = ws.Databox({"run", "noaa"});
      ++runs_;
    }
    if (next.exit_code != 0) {
      ++violations_;
      ADD_FAILURE() << "after " << when << " the next run failed:\n" << next.out << next.err;
    }
    CheckTables(ws, reference.tables, /*complete=*/true, "recovery after " + when);
  }
  EXPECT_GE(kills_, kKills) << "too few runs were still running when killed (time budget)";
  std::cout << "crash: newest package state right after each kill:";
  for (const auto& [state, n] : killed_in) std::cout << " " << state << "=" << n;
  std::cout << "\ncrash: " << reads_skipped_
            << " checks found the catalog at an already verified state (same metadata files)"
            << std::endl;
}

}  // namespace
}  // namespace databox::reliability
