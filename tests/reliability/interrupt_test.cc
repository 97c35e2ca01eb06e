// Interrupted runs (docs/run_history.md, docs/load_package.md): SIGINT or SIGTERM during
// `databox run` stops the load at its next request, writes the run record with the source
// interrupted, marks the load package failed ("interrupted") and exits 130 or 143. And
// `databox loads remove` refuses, naming the holder, while a load of that source runs.
// The source is slow by its own pause between requests (pause_s), served from a cassette.
#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "background_run.h"
#include "harness.h"

namespace databox::reliability {
namespace {

using cli::testing::Contains;
using std::chrono::milliseconds;

constexpr int kPages = 12;

//! The faulty source with a one-second pause before every request but the first, and a
//! cassette of kPages full pages and a last short one: a load takes about kPages seconds.
void WriteSlowSource(Workspace& ws) {
  std::string toml = FaultySourceToml();
  const std::string retries = "retries = 2\n";
  toml.replace(toml.find(retries), retries.size(), retries + "pause_s = 1\n");
  ws.WriteRegistry(toml);
  std::vector<Interaction> pages;
  for (int page = 1; page <= kPages + 1; ++page) {
    const int id = 2 * page;
    std::string body = "{\"results\":[{\"id\":" + std::to_string(id - 1) + ",\"name\":\"a\"}";
    if (page <= kPages) body += ",{\"id\":" + std::to_string(id) + ",\"name\":\"b\"}";
    pages.push_back(Respond(FaultyItemsUri(page), body + "]}"));
  }
  ws.WriteCassette("faulty", pages);
}

//! The id of the faulty source's one load package once its package.json exists; nullopt
//! when none appeared in time.
std::optional<std::string> AwaitPackage(const Workspace& ws) {
  const fs::path root = ws.state_dir() / "loads" / "faulty";
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (std::chrono::steady_clock::now() < deadline) {
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(root, ec)) {
      if (fs::exists(entry.path() / "package.json")) return entry.path().filename().string();
    }
    std::this_thread::sleep_for(milliseconds(20));
  }
  return std::nullopt;
}

//! The last line of the run history, parsed (null when there is none).
nlohmann::json LastRunRecord(const Workspace& ws) {
  std::ifstream in(ws.state_dir() / "runs.jsonl");
  std::string last;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) last = line;
  }
  if (last.empty()) return nullptr;
  return nlohmann::json::parse(last, nullptr, /*allow_exceptions=*/false);
}

class Interrupt : public ::testing::Test {
 protected:
  void TearDown() override {
    Tally& tally = TallyFor("interrupt");
    tally.faults += faults_;
    tally.runs += runs_;
    if (HasFailure()) tally.violations += 1;
  }

  //! Starts a slow `databox run faulty`, sends `signal_number` once its package exists, and
  //! checks the exit code, the run record, `databox runs` and `databox loads`.
  void InterruptRun(int signal_number, int expected_exit, const std::string& outcome) {
    Workspace ws(outcome);
    WriteSlowSource(ws);
    ++faults_;
    ++runs_;
    BackgroundDatabox run(ws, {"run", "faulty"}, "run", {kFaultyKeyEnv});
    const auto load_id = AwaitPackage(ws);
    ASSERT_TRUE(load_id.has_value()) << "no load package appeared:\n" << run.Output();
    std::this_thread::sleep_for(milliseconds(300));  // inside the extraction's pauses
    ASSERT_EQ(::kill(run.pid(), signal_number), 0);
    const auto code = run.WaitFor(milliseconds(20'000));
    ASSERT_TRUE(code.has_value()) << "the run did not stop:\n" << run.Output();
    EXPECT_EQ(*code, expected_exit) << run.Output();
    EXPECT_TRUE(Contains(run.Output(), "interrupted")) << run.Output();

    const nlohmann::json record = LastRunRecord(ws);
    ASSERT_TRUE(record.is_object()) << "no run record written";
    EXPECT_EQ(record["exit_code"], expected_exit) << record.dump(2);
    ASSERT_EQ(record["sources"].size(), 1u) << record.dump(2);
    EXPECT_EQ(record["sources"][0]["source"], "faulty");
    EXPECT_EQ(record["sources"][0]["status"], "interrupted") << record.dump(2);

    const RunResult runs = ws.Databox({"runs", "--json"});
    ASSERT_EQ(runs.exit_code, 0) << runs.err;
    const nlohmann::json listed = nlohmann::json::parse(runs.out, nullptr, false);
    ASSERT_TRUE(listed.is_array() && listed.size() == 1u) << runs.out;
    EXPECT_EQ(listed[0]["status"], outcome) << runs.out;
    const RunResult show = ws.Databox({"runs", "show", record["run_id"].get<std::string>()});
    ASSERT_EQ(show.exit_code, 0) << show.err;
    EXPECT_TRUE(Contains(show.out, "faulty: interrupted")) << show.out;

    const RunResult loads = ws.Databox({"loads", "faulty", "--json"});
    ASSERT_EQ(loads.exit_code, 0) << loads.err;
    const nlohmann::json packages = nlohmann::json::parse(loads.out, nullptr, false);
    ASSERT_TRUE(packages.is_array() && packages.size() == 1u) << loads.out;
    EXPECT_EQ(packages[0]["load_id"], *load_id);
    EXPECT_EQ(packages[0]["state"], "failed") << loads.out;
    EXPECT_TRUE(packages[0]["error"].is_string() &&
                packages[0]["error"].get<std::string>().starts_with("interrupted"))
        << loads.out;
    EXPECT_EQ(packages[0]["resumable"], false) << "extraction had not finished\n" << loads.out;
    EXPECT_TRUE(ws.Tables("raw_faulty").empty()) << "an interrupted load committed";
  }

  int faults_ = 0;
  int runs_ = 0;
};

// Before: SIGINT ended the process at once; no run record, the package stayed "extracting".
TEST_F(Interrupt, SigintDuringExtractionIsRecordedAsInterruptedWithExit130) {
  InterruptRun(SIGINT, 130, "interrupted");
}

TEST_F(Interrupt, SigtermDuringExtractionIsRecordedAsTerminatedWithExit143) {
  InterruptRun(SIGTERM, 143, "terminated");
}

TEST_F(Interrupt, LoadsRemoveRefusesWhileALoadHoldsTheSourceLock) {
  Workspace ws("loads_remove");
  WriteSlowSource(ws);
  ++faults_;
  runs_ += 2;
  BackgroundDatabox run(ws, {"run", "faulty"}, "run", {kFaultyKeyEnv});
  const auto load_id = AwaitPackage(ws);
  ASSERT_TRUE(load_id.has_value()) << "no load package appeared:\n" << run.Output();
  const fs::path package = ws.state_dir() / "loads" / "faulty" / *load_id;

  const RunResult refused = ws.Databox({"loads", "remove", "faulty", *load_id});
  EXPECT_EQ(refused.exit_code, 1) << refused.out << refused.err;
  EXPECT_TRUE(Contains(refused.err, "pid " + std::to_string(run.pid()) + " ")) << refused.err;
  EXPECT_TRUE(fs::exists(package)) << "removed while its load ran";

  ASSERT_EQ(::kill(run.pid(), SIGINT), 0);
  ASSERT_TRUE(run.WaitFor(milliseconds(20'000)).has_value()) << run.Output();

  const RunResult unknown_id = ws.Databox({"loads", "remove", "faulty", *load_id + "9"});
  EXPECT_EQ(unknown_id.exit_code, 1) << unknown_id.err;
  EXPECT_TRUE(Contains(unknown_id.err, "did you mean " + *load_id + "?")) << unknown_id.err;
  const RunResult unknown_source = ws.Databox({"loads", "remove", "faulyt", *load_id});
  EXPECT_EQ(unknown_source.exit_code, 2) << unknown_source.err;
  EXPECT_TRUE(Contains(unknown_source.err, "did you mean 'faulty'?")) << unknown_source.err;

  const RunResult removed = ws.Databox({"loads", "remove", "faulty", *load_id});
  EXPECT_EQ(removed.exit_code, 0) << removed.err;
  EXPECT_FALSE(fs::exists(package));
  const RunResult empty = ws.Databox({"loads", "faulty"});
  EXPECT_EQ(empty.exit_code, 0) << empty.err;
  EXPECT_TRUE(Contains(empty.out, "no load packages of source faulty")) << empty.out;
}

}  // namespace
}  // namespace databox::reliability
