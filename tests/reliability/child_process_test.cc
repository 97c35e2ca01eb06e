// Children never outlive databox (docs/reliability.md, "Round two"). `databox refresh` is
// killed with SIGKILL while its transform runs; the transform process it started must end
// too (before: the sqlmesh child kept running in 6 of 8 trials, holding SQLMesh's state and the
// analytics database). The transform is a configured command (`sleep`, killed at once or a
// little later; a shell with children of its own) and the real SQLMesh of the example project.
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "background_run.h"
#include "harness.h"

namespace databox::reliability {
namespace {

using std::chrono::milliseconds;

std::string Command(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/comm");
  std::string name;
  std::getline(in, name);
  return name;
}

//! Writes the example registry with `command` as the transform command ("" keeps SQLMesh).
void WriteRegistryWithTransform(Workspace& ws, const std::string& command) {
  ws.WriteRegistry();
  if (command.empty()) return;
  const fs::path registry = ws.dir() / "databox.toml";
  std::string text = cli::testing::Slurp(registry);
  const std::string line = "project_dir = \"transform\"";
  const auto pos = text.find(line);
  ASSERT_NE(pos, std::string::npos) << "example registry no longer contains: " << line;
  text.insert(pos + line.size(), "\ncommand = " + command);
  std::ofstream(registry) << text;
}

class ChildProcesses : public ::testing::Test {
 protected:
  void TearDown() override {
    Tally& tally = TallyFor("children");
    tally.faults += faults_;
    tally.runs += faults_;
    if (HasFailure()) tally.violations += 1;
  }

  //! Starts `refresh --source gbif`, waits for the transform child, kills databox `delay` after
  //! it appeared, and checks the child and its own children end within 5 s.
  void KillDuringTransform(Workspace& ws, milliseconds delay, const std::string& what) {
    ++faults_;
    BackgroundDatabox refresh(ws, {"refresh", "--source", "gbif"}, "refresh");
    std::vector<pid_t> children;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(300);
    while (children.empty() && std::chrono::steady_clock::now() < deadline) {
      ASSERT_FALSE(refresh.WaitFor(milliseconds(20)).has_value())
          << what << ": the refresh ended before its transform started\n"
          << refresh.Output();
      children = ChildrenOf(refresh.pid());
    }
    ASSERT_FALSE(children.empty()) << what << ": no transform process appeared";
    std::this_thread::sleep_for(delay);
    std::vector<pid_t> family = children;  // every descendant, however deep
    for (std::size_t i = 0; i < family.size(); ++i) {
      for (pid_t descendant : ChildrenOf(family[i])) family.push_back(descendant);
    }
    std::string names;
    for (pid_t p : family) names += " " + std::to_string(p) + ":" + Command(p);
    refresh.Kill();
    EXPECT_EQ(refresh.Wait(), -1);
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    std::vector<pid_t> alive = family;
    while (!alive.empty() && std::chrono::steady_clock::now() < until) {
      std::erase_if(alive, [](pid_t p) { return LiveParentOf(p) == -1; });
      std::this_thread::sleep_for(milliseconds(20));
    }
    std::string left;
    for (pid_t p : alive) {
      left += " " + std::to_string(p) + ":" + Command(p);
      ::kill(p, SIGKILL);  // do not leave it to the next case
    }
    EXPECT_TRUE(alive.empty()) << what << ": outlived databox (killed 5 s later):" << left
                               << " (started:" << names << ")";
  }

  int faults_ = 0;
};

TEST_F(ChildProcesses, ConfiguredTransformEndsWhenDataboxIsKilled) {
  Workspace ws("children_sleep");
  WriteRegistryWithTransform(ws, R"(["sleep", "300"])");
  ws.UseSharedRecordings("gbif");
  for (const int delay_ms : {0, 0, 50, 300}) {
    KillDuringTransform(ws, milliseconds(delay_ms),
                        "sleep, killed " + std::to_string(delay_ms) + " ms after it started");
  }
}

// Before: the parent-death signal reached only the transform process; what it had started
// (SQLMesh's worker processes) kept running, found by the soak test.
TEST_F(ChildProcesses, WhatTheTransformStartedEndsWhenDataboxIsKilled) {
  Workspace ws("children_grandchildren");
  WriteRegistryWithTransform(ws, R"(["sh", "-c", "sleep 300 & sleep 301 & wait"])");
  ws.UseSharedRecordings("gbif");
  for (const int delay_ms : {300, 600}) {
    KillDuringTransform(
        ws, milliseconds(delay_ms),
        "sh with two sleeps, killed " + std::to_string(delay_ms) + " ms after it started");
  }
}

TEST_F(ChildProcesses, SqlMeshEndsWhenDataboxIsKilled) {
  Workspace ws("children_sqlmesh");
  WriteRegistryWithTransform(ws, "");
  ws.UseSharedRecordings("gbif");
  std::mt19937 random(std::random_device{}());
  for (int trial = 0; trial < 2; ++trial) {
    const int delay_ms = std::uniform_int_distribution<int>(0, 2'000)(random);
    KillDuringTransform(ws, milliseconds(delay_ms),
                        "sqlmesh, killed " + std::to_string(delay_ms) + " ms after it started");
  }
}

}  // namespace
}  // namespace databox::reliability
