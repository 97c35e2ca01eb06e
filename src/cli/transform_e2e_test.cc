// `databox transform` end to end through the built binary: the transform alone after a refresh
// that skipped it (with the real SQLMesh), its run record, `--plan` naming a raw column that
// appeared and changing nothing, and Ctrl-C stopping a running transform. Each test works on a
// copy of the example registry in its own folder.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "cli/example_project_test_support.h"

namespace {

namespace fs = std::filesystem;
using databox::cli::testing::Contains;
using databox::cli::testing::ExampleProjectTest;
using databox::cli::testing::RunResult;
using databox::cli::testing::Slurp;

//! The example's usgs_earthquakes transform line, and the same with one more column.
constexpr const char* kTitleLine = "record->>'$.properties.title' AS title,";
constexpr const char* kTitleAndNetwork =
    "record->>'$.properties.title' AS title, record->>'$.properties.net' AS network,";

class TransformE2e : public ExampleProjectTest {
 protected:
  //! The last record of the run history.
  nlohmann::json LastRun() const {
    std::ifstream in(dir_ / ".databox" / "runs.jsonl");
    std::string line, last;
    while (std::getline(in, line)) last = line;
    return last.empty() ? nlohmann::json() : nlohmann::json::parse(last);
  }
};

TEST_F(TransformE2e, TransformAloneRunsAfterASkippedOneAndPlanNamesANewColumnChangingNothing) {
  WriteRegistry();
  // Every source: the example's models need them all loaded.
  RunResult loaded = Databox({"refresh", "--skip-transform"});
  ASSERT_EQ(loaded.exit_code, 0) << loaded.out << loaded.err;
  EXPECT_TRUE(Contains(loaded.out, "transform: skipped")) << loaded.out;

  RunResult transformed = Databox({"transform"});
  ASSERT_EQ(transformed.exit_code, 0) << transformed.out << transformed.err;
  EXPECT_TRUE(Contains(transformed.out, "transform: ok (exit 0) in ")) << transformed.out;
  const nlohmann::json record = LastRun();
  EXPECT_EQ(record["command"], "transform");
  EXPECT_EQ(record["exit_code"], 0);
  EXPECT_EQ(record["transform"]["status"], "ok");
  EXPECT_TRUE(record["transform"]["seconds"].is_number()) << record.dump();
  EXPECT_TRUE(record["sources"].empty());
  EXPECT_TRUE(fs::exists(dir_ / ".databox" / "transform_raw_columns.json"));
  RunResult model =
      Databox({"query", "SELECT count(*) AS n FROM databox.analytics.fct_earthquakes", "--json"});
  EXPECT_EQ(model.exit_code, 0) << model.err;
  EXPECT_FALSE(Contains(model.out, "{\"n\":0}")) << model.out;

  RunResult runs = Databox({"runs"});
  EXPECT_EQ(runs.exit_code, 0) << runs.err;
  EXPECT_TRUE(Contains(runs.out, "transform")) << runs.out;
  EXPECT_TRUE(Contains(runs.out, "- (transform only)")) << runs.out;
  RunResult shown = Databox({"runs", "show", record["run_id"].get<std::string>()});
  EXPECT_EQ(shown.exit_code, 0) << shown.err;
  EXPECT_TRUE(Contains(shown.out, "(transform)\n  status    ok (exit 0)")) << shown.out;
  EXPECT_TRUE(Contains(shown.out, "transform\n  ok (exit 0) in ")) << shown.out;

  // Nothing changed since the transform.
  RunResult unchanged = Databox({"transform", "--plan"});
  EXPECT_EQ(unchanged.exit_code, 0) << unchanged.out << unchanged.err;
  EXPECT_TRUE(Contains(unchanged.out, "no raw column changed since the last transform"))
      << unchanged.out;
  EXPECT_TRUE(Contains(unchanged.out, "models (sqlmesh -p")) << unchanged.out;

  // The source's transform now yields one more column: its next load adds it to the table.
  WriteRegistry(kTitleLine, kTitleAndNetwork);
  RunResult reloaded = Databox({"run", "usgs_earthquakes"});
  ASSERT_EQ(reloaded.exit_code, 0) << reloaded.out << reloaded.err;

  const fs::path state_db = dir_ / ".databox" / "sqlmesh_state.duckdb";
  const std::string state_before = Slurp(state_db);
  ASSERT_FALSE(state_before.empty());
  const auto runs_before = fs::file_size(dir_ / ".databox" / "runs.jsonl");
  RunResult plan = Databox({"transform", "--plan"});
  EXPECT_EQ(plan.exit_code, 0) << plan.out << plan.err;
  EXPECT_TRUE(Contains(plan.out, "raw columns changed since the last transform")) << plan.out;
  EXPECT_TRUE(Contains(plan.out, "  raw_usgs_earthquakes.events\n    + network string\n"))
      << plan.out;
  RunResult again = Databox({"transform", "--plan", "--json"});
  EXPECT_EQ(again.exit_code, 0) << again.out << again.err;
  const nlohmann::json json = nlohmann::json::parse(again.out);
  EXPECT_EQ(json["models"]["ok"], true) << again.out;
  ASSERT_EQ(json["raw_columns"]["tables"].size(), 1u) << again.out;
  EXPECT_EQ(json["raw_columns"]["tables"][0]["table"], "raw_usgs_earthquakes.events");
  EXPECT_EQ(json["raw_columns"]["tables"][0]["added"][0]["name"], "network");
  // --plan applied nothing: SQLMesh's state, the run history and the saved columns are as before.
  EXPECT_TRUE(Slurp(state_db) == state_before) << "sqlmesh state changed";
  EXPECT_EQ(fs::file_size(dir_ / ".databox" / "runs.jsonl"), runs_before);
  EXPECT_FALSE(Contains(Slurp(dir_ / ".databox" / "transform_raw_columns.json"), "network"));
}

//! Waits until `path` holds a number; that number, or nullopt after 30 s.
std::optional<pid_t> AwaitPid(const fs::path& path) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (std::chrono::steady_clock::now() < deadline) {
    std::ifstream in(path);
    pid_t pid = 0;
    if (in >> pid && pid > 0) return pid;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return std::nullopt;
}

TEST_F(TransformE2e, CtrlCStopsARunningTransformAndRecordsTheRunAsInterrupted) {
  const fs::path pid_file = dir_ / "child.pid";
  WriteRegistry("project_dir = \"transform\"",
                "project_dir = \"transform\"\ncommand = [\"sh\", \"-c\", \"echo $$ > " +
                    pid_file.string() + "; exec sleep 120\"]");
  // With a custom command the model preview is not available; the raw columns still are.
  RunResult plan = Databox({"transform", "--plan"});
  EXPECT_EQ(plan.exit_code, 0) << plan.out << plan.err;
  EXPECT_TRUE(Contains(plan.out, "the model preview needs the default SQLMesh command"))
      << plan.out;
  EXPECT_TRUE(Contains(plan.out, "no earlier transform to compare with")) << plan.out;

  const fs::path out = dir_ / "transform.out";
  const std::vector<std::string> args = Args({"transform"});
  const pid_t databox = fork();
  if (databox == 0) {
    const int fd = open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    dup2(fd, 1);
    dup2(fd, 2);
    if (chdir(dir_.c_str()) != 0) _exit(127);
    std::vector<char*> argv = {const_cast<char*>(DATABOX_BINARY)};
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(DATABOX_BINARY, argv.data());
    _exit(127);
  }
  ASSERT_GT(databox, 0);
  const std::optional<pid_t> child = AwaitPid(pid_file);
  if (!child) kill(databox, SIGKILL);
  ASSERT_TRUE(child.has_value()) << Slurp(out);
  // While it runs the workspace is taken: a second transform is refused and starts nothing.
  RunResult second = Databox({"transform"});
  EXPECT_EQ(second.exit_code, 2) << second.out << second.err;
  EXPECT_TRUE(Contains(second.err, "in use by another databox process")) << second.err;
  EXPECT_TRUE(Contains(second.err, "nothing was started")) << second.err;
  const auto signalled = std::chrono::steady_clock::now();
  ASSERT_EQ(kill(databox, SIGINT), 0);
  int status = 0;
  ASSERT_EQ(waitpid(databox, &status, 0), databox);
  const auto took = std::chrono::steady_clock::now() - signalled;
  ASSERT_TRUE(WIFEXITED(status)) << Slurp(out);
  EXPECT_EQ(WEXITSTATUS(status), 130) << Slurp(out);
  EXPECT_LT(took, std::chrono::seconds(15)) << "the transform ran on after Ctrl-C";
  // The transform's process is gone (not merely orphaned).
  EXPECT_EQ(kill(*child, 0), -1) << "transform process " << *child << " is still running";
  EXPECT_TRUE(Contains(Slurp(out), "interrupted by SIGINT")) << Slurp(out);

  const nlohmann::json record = LastRun();
  EXPECT_EQ(record["command"], "transform");
  EXPECT_EQ(record["exit_code"], 130);
  EXPECT_EQ(record["transform"]["status"], "interrupted");
  RunResult runs = Databox({"runs"});
  EXPECT_TRUE(Contains(runs.out, "interrupted")) << runs.out;
  // Not a success: no columns were saved.
  EXPECT_FALSE(fs::exists(dir_ / ".databox" / "transform_raw_columns.json"));
}

}  // namespace
