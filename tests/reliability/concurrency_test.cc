// Concurrent commands on one workspace (docs/reliability.md, "Round two"). One refresh per
// workspace at a time: a second `refresh`, or a `run` while a refresh works, exits at once
// (exit 2, "nothing was started", the holder's pid named) before it touches anything, and the
// first refresh ends as if it had been alone. Two `run`s of one source: the loser names the
// holder's pid every time.
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "background_run.h"
#include "harness.h"
#include "table_checks.h"

namespace databox::reliability {
namespace {

using cli::testing::Contains;
using std::chrono::milliseconds;

void UseAllRecordings(Workspace& ws) {
  for (const auto& s : kRoutineSources) ws.UseSharedRecordings(s);
}

//! Lines of the run history.
int RunRecords(const Workspace& ws) {
  std::ifstream in(ws.state_dir() / "runs.jsonl");
  int lines = 0;
  for (std::string line; std::getline(in, line);) lines += line.empty() ? 0 : 1;
  return lines;
}

class Concurrency : public ::testing::Test {
 protected:
  void TearDown() override {
    Tally& tally = TallyFor("concurrency");
    tally.faults += faults_;
    tally.runs += runs_;
    if (HasFailure()) tally.violations += 1;
  }

  //! The refused command's checks: exit 2 at once, the holder named, nothing started.
  void ExpectRefused(BackgroundDatabox& refused, pid_t holder, const std::string& what) {
    const auto code = refused.WaitFor(milliseconds(20'000));
    ASSERT_TRUE(code.has_value()) << what << " did not end at once; it waits or works:\n"
                                  << refused.Output();
    const std::string out = refused.Output();
    EXPECT_EQ(*code, 2) << what << "\n" << out;
    EXPECT_TRUE(Contains(out, "pid " + std::to_string(holder))) << what << "\n" << out;
    EXPECT_TRUE(Contains(out, "nothing was started")) << what << "\n" << out;
    EXPECT_FALSE(Contains(out, "SOURCE_START")) << what << "\n" << out;
  }

  int faults_ = 0;
  int runs_ = 0;
};

// Before: a second refresh 0.1-0.3 s after the first split the sources with it (each failed the
// sources the other held) and both exited 1 without a transform.
TEST_F(Concurrency, SecondRefreshExitsAtOnceAndTheFirstLoadsEverySource) {
  Workspace ws("two_refreshes");
  ws.WriteRegistry();
  UseAllRecordings(ws);
  int winners = 0;
  for (const int delay_ms : {0, 100, 200, 300}) {
    ++faults_;
    runs_ += 2;
    const std::string when = "second refresh " + std::to_string(delay_ms) + " ms after the first";
    BackgroundDatabox first(ws, {"refresh", "--skip-transform"}, "first");
    std::this_thread::sleep_for(milliseconds(delay_ms));
    BackgroundDatabox second(ws, {"refresh", "--skip-transform"}, "second");
    // Started together, either may win; the other must be refused.
    const auto second_code = second.WaitFor(milliseconds(20'000));
    const bool second_won = !second_code.has_value() || *second_code == 0;
    BackgroundDatabox& winner = second_won ? second : first;
    BackgroundDatabox& loser = second_won ? first : second;
    ExpectRefused(loser, winner.pid(), when);
    EXPECT_EQ(winner.Wait(), 0) << when << "\n" << winner.Output();
    for (const auto& s : kRoutineSources) {
      EXPECT_TRUE(Contains(winner.Output(), "  " + s + ": ok")) << when << "\n" << winner.Output();
    }
    ++winners;
    EXPECT_EQ(RunRecords(ws), winners) << when << ": the refused refresh wrote a run record";
  }
}

// Before: a second refresh 2.5 s after the first made the first's transform die with a raw
// Python traceback (SQLMesh's state database locked by the second transform). A `run` during a
// refresh is refused too (documented choice: it would rebuild the raw views and commit while
// the refresh inspects and transforms).
TEST_F(Concurrency, RefreshWithTransformIsNeverDisturbedByASecondRefreshOrARun) {
  Workspace ws("refresh_transform");
  ws.WriteRegistry();
  UseAllRecordings(ws);
  faults_ += 3;
  runs_ += 4;
  BackgroundDatabox first(ws, {"refresh"}, "first");
  std::this_thread::sleep_for(milliseconds(2'500));
  {
    BackgroundDatabox second(ws, {"refresh"}, "second");
    ExpectRefused(second, first.pid(), "second refresh 2.5 s later");
  }
  {
    BackgroundDatabox run(ws, {"run", "gbif"}, "run");
    ExpectRefused(run, first.pid(), "run gbif during the refresh");
    EXPECT_TRUE(Contains(run.Output(), "refresh")) << run.Output();
  }
  // Once the refresh is in its transform, a second refresh is refused as well.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(300);
  while (!Contains(first.Output(), "PHASE_START phase=transform") &&
         std::chrono::steady_clock::now() < deadline && !first.WaitFor(milliseconds(200))) {
  }
  {
    BackgroundDatabox third(ws, {"refresh"}, "third");
    ExpectRefused(third, first.pid(), "a refresh during the transform");
  }
  EXPECT_EQ(first.Wait(), 0) << first.Output();
  EXPECT_TRUE(Contains(first.Output(), "transform: ok")) << first.Output();
  EXPECT_FALSE(Contains(first.Output(), "Traceback")) << first.Output();
  EXPECT_EQ(RunRecords(ws), 1);
  // The workspace is free again.
  RunResult after = ws.Databox({"run", "gbif"});
  EXPECT_EQ(after.exit_code, 0) << after.out << after.err;
}

// Before: in 6 of 16 trials the loser's message lacked the holder's pid (the lock file was
// empty between the holder's lock and its write of its identity).
TEST_F(Concurrency, RunLosingTheSourceLockAlwaysNamesTheHolder) {
  Workspace ws("source_lock");
  ws.WriteRegistry();
  ws.UseSharedRecordings("gbif");
  constexpr int kTrials = 24;
  int refused = 0;
  for (int trial = 0; trial < kTrials; ++trial) {
    ++faults_;
    runs_ += 2;
    BackgroundDatabox a(ws, {"run", "gbif"}, "a");
    if (trial % 3 != 0) std::this_thread::sleep_for(milliseconds(trial % 3 == 1 ? 2 : 15));
    BackgroundDatabox b(ws, {"run", "gbif"}, "b");
    // Whichever fails first lost the lock; the other is killed once the loser has answered.
    BackgroundDatabox* loser = nullptr;
    BackgroundDatabox* holder = nullptr;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (loser == nullptr && std::chrono::steady_clock::now() < deadline) {
      if (auto code = a.WaitFor(milliseconds(5)); code && *code != 0) {
        loser = &a, holder = &b;
      } else if (auto code_b = b.WaitFor(milliseconds(5)); code_b && *code_b != 0) {
        loser = &b, holder = &a;
      } else if (code && code_b) {
        break;  // both loaded, one after the other: no conflict this time
      }
    }
    if (loser == nullptr) continue;
    ++refused;
    const std::string out = loser->Output();
    // A holder that ended between the loser's refused flock and its look at the kernel's lock
    // table has freed the lock: the loser takes it then, so a refusal always names a live holder.
    EXPECT_TRUE(Contains(out, "source gbif is being loaded by another databox process (pid " +
                                  std::to_string(holder->pid()) + " "))
        << "trial " << trial << ": the holder is pid " << holder->pid() << "\n"
        << out;
    holder->Kill();
    holder->Wait();
  }
  EXPECT_GE(refused, kTrials / 2) << "too few trials raced for the lock while its holder ran to "
                                     "test anything ("
                                  << refused << " refused)";
}

}  // namespace
}  // namespace databox::reliability
