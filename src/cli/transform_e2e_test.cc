// `databox transform` end to end through the built binary: the transform alone after a refresh
// that skipped it (with the real SQLMesh), its run record, `--plan` naming a raw column that
// appeared and changing nothing, and Ctrl-C stopping a running transform. Each test works on a
// copy of the example registry in its own folder.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "cli/example_project_test_support.h"
#include "common/test_paths.h"

namespace {

namespace fs = std::filesystem;
namespace test_paths = databox::test_paths;
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

// Before their first load the raw tables are placeholder views with every declared column, so
// every example model binds and builds (empty where its source is missing) with one source
// loaded: the others' views, AVONET's and the disabled eBird resources' (taxonomy, region_stats)
// included, carry the columns the models read.
TEST_F(TransformE2e, EveryExampleModelBuildsWithOnlyOneSourceLoaded) {
  WriteRegistry();
  RunResult loaded = Databox({"run", "usgs_earthquakes"});
  ASSERT_EQ(loaded.exit_code, 0) << loaded.out << loaded.err;
  RunResult transformed = Databox({"transform"});
  ASSERT_EQ(transformed.exit_code, 0) << transformed.out << transformed.err;
  EXPECT_TRUE(Contains(transformed.out, "transform: ok (exit 0) in ")) << transformed.out;

  std::vector<std::string> models;
  for (const auto& file : fs::directory_iterator(dir_ / "transform" / "models" / "analytics")) {
    if (file.path().extension() == ".sql") models.push_back(file.path().stem().string());
  }
  std::sort(models.begin(), models.end());
  // One model per grain of the source pack (docs/analytics.md): a model added or removed must be
  // added here or removed, so that every one is checked below.
  const std::vector<std::string> expected = {"dim_ebird_hotspots",   "dim_species",
                                             "dim_species_traits",   "dim_stream_sites",
                                             "dim_weather_stations", "fct_bird_observations",
                                             "fct_daily_streamflow", "fct_daily_weather",
                                             "fct_earthquakes",      "fct_ebird_region_daily_stats",
                                             "fct_gbif_occurrences", "fct_xeno_canto_recordings",
                                             "platform_health"};
  ASSERT_EQ(models, expected);
  for (const std::string& model : models) {
    SCOPED_TRACE(model);
    RunResult counted =
        Databox({"query", "SELECT count(*) AS n FROM databox.analytics." + model, "--json"});
    ASSERT_EQ(counted.exit_code, 0) << counted.out << counted.err;
    const bool has_rows = !Contains(counted.out, "{\"n\":0}");
    // The loaded source's model has its rows; platform_health lists every routine source.
    const bool expects_rows = model == "fct_earthquakes" || model == "platform_health";
    EXPECT_EQ(has_rows, expects_rows) << counted.out;
  }
}

//! Waits until `path` holds a number; that number, or nullopt after 60 s.
std::optional<pid_t> AwaitPid(const fs::path& path) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (std::chrono::steady_clock::now() < deadline) {
    std::ifstream in(path);
    pid_t pid = 0;
    if (in >> pid && pid > 0) return pid;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return std::nullopt;
}

//! A databox whose transform command writes its pid to `pid_file` and sleeps for two minutes.
class SlowTransformE2e : public TransformE2e {
 protected:
  void SetUp() override {
    TransformE2e::SetUp();
    pid_file_ = dir_ / "child.pid";
    out_ = dir_ / "databox.out";
    WriteRegistry("project_dir = \"transform\"",
                  "project_dir = \"transform\"\ncommand = [\"sh\", \"-c\", \"echo $$ > " +
                      pid_file_.string() + "; exec sleep 120\"]");
  }

  //! Starts databox with `args` (output to <dir>/databox.out), waits until the transform runs,
  //! runs `while_running`, sends SIGINT and waits for the end. Returns databox's exit status
  //! (-1 when it did not exit normally); `took_` is the time from the signal to the end.
  int InterruptTheTransform(
      const std::vector<std::string>& args, const std::function<void()>& while_running = [] {}) {
    const std::vector<std::string> full = Args(args);
    const std::string& binary = test_paths::DataboxBinary();
    const pid_t databox = fork();
    if (databox == 0) {
      const int fd = open(out_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
      dup2(fd, 1);
      dup2(fd, 2);
      if (chdir(dir_.c_str()) != 0) _exit(127);
      std::vector<char*> argv = {const_cast<char*>(binary.c_str())};
      for (const auto& a : full) argv.push_back(const_cast<char*>(a.c_str()));
      argv.push_back(nullptr);
      execv(binary.c_str(), argv.data());
      _exit(127);
    }
    EXPECT_GT(databox, 0);
    child_ = AwaitPid(pid_file_);
    EXPECT_TRUE(child_.has_value()) << "the transform did not start: " << Slurp(out_);
    if (child_) while_running();
    const auto signalled = std::chrono::steady_clock::now();
    kill(databox, child_ ? SIGINT : SIGKILL);
    int status = 0;
    waitpid(databox, &status, 0);
    took_ = std::chrono::steady_clock::now() - signalled;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }

  //! Checks that the transform stopped soon after the signal and left no process behind.
  void ExpectTheTransformStopped() const {
    EXPECT_LT(took_, std::chrono::seconds(15)) << "the transform ran on after Ctrl-C";
    ASSERT_TRUE(child_.has_value());
    EXPECT_EQ(kill(*child_, 0), -1) << "transform process " << *child_ << " is still running";
  }

  //! `databox status` and `runs show RUN_ID` (text and JSON) call the
  //! transform of run `run_id` interrupted, with no exit code.
  void ExpectInterruptedEverywhere(const std::string& run_id) {
    RunResult status = Databox({"status"});
    EXPECT_TRUE(Contains(status.out, "transform: interrupted at ")) << status.out;
    EXPECT_FALSE(Contains(status.out, "exit 143")) << status.out;
    RunResult show = Databox({"runs", "show", run_id});
    EXPECT_EQ(show.exit_code, 0) << show.out << show.err;
    EXPECT_TRUE(Contains(show.out, "transform\n  interrupted")) << show.out;
    EXPECT_FALSE(Contains(show.out, "exit 143")) << show.out;
    RunResult show_json = Databox({"runs", "show", run_id, "--json"});
    const auto json = nlohmann::json::parse(show_json.out, nullptr, false);
    EXPECT_EQ(json["transform"]["status"], "interrupted") << show_json.out;
    EXPECT_TRUE(json["transform"]["exit_code"].is_null()) << show_json.out;
  }

  fs::path pid_file_;  //!< set in SetUp, once dir_ is
  fs::path out_;
  std::optional<pid_t> child_;
  std::chrono::steady_clock::duration took_{};
};

TEST_F(SlowTransformE2e, CtrlCStopsARunningTransformAndRecordsTheRunAsInterrupted) {
  // With a custom command the model preview is not available; the raw columns still are.
  RunResult plan = Databox({"transform", "--plan"});
  EXPECT_EQ(plan.exit_code, 0) << plan.out << plan.err;
  EXPECT_TRUE(Contains(plan.out, "the model preview needs the default SQLMesh command"))
      << plan.out;
  EXPECT_TRUE(Contains(plan.out, "no earlier transform to compare with")) << plan.out;

  const int exit_code = InterruptTheTransform({"transform"}, [this] {
    // While it runs the workspace is taken: a second transform is refused and starts nothing.
    RunResult second = Databox({"transform"});
    EXPECT_EQ(second.exit_code, 2) << second.out << second.err;
    EXPECT_TRUE(Contains(second.err, "in use by another databox process")) << second.err;
    EXPECT_TRUE(Contains(second.err, "nothing was started")) << second.err;
  });
  EXPECT_EQ(exit_code, 130) << Slurp(out_);
  ExpectTheTransformStopped();
  EXPECT_TRUE(Contains(Slurp(out_), "interrupted by SIGINT")) << Slurp(out_);

  const nlohmann::json record = LastRun();
  EXPECT_EQ(record["command"], "transform");
  EXPECT_EQ(record["exit_code"], 130);
  EXPECT_EQ(record["transform"]["status"], "interrupted");
  // The step ended by our own SIGTERM: no exit code of SQLMesh's, and every view says so.
  EXPECT_FALSE(record["transform"].contains("exit_code")) << record.dump();
  RunResult runs = Databox({"runs"});
  EXPECT_TRUE(Contains(runs.out, "interrupted")) << runs.out;
  ExpectInterruptedEverywhere(record["run_id"].get<std::string>());
  // Not a success: no columns were saved.
  EXPECT_FALSE(fs::exists(dir_ / ".databox" / "transform_raw_columns.json"));
}

TEST_F(SlowTransformE2e, CtrlCDuringTheTransformOfARefreshStopsItAndRecordsTheRefreshInterrupted) {
  EXPECT_EQ(InterruptTheTransform({"refresh", "--json"}), 130) << Slurp(out_);
  ExpectTheTransformStopped();
  const nlohmann::json record = LastRun();
  EXPECT_EQ(record["command"], "refresh");
  EXPECT_EQ(record["exit_code"], 130);
  EXPECT_EQ(record["transform"]["status"], "interrupted");
  EXPECT_FALSE(record["transform"].contains("exit_code")) << record.dump();
  EXPECT_EQ(record["sources"].size(), 6u);
  ExpectInterruptedEverywhere(record["run_id"].get<std::string>());
}

}  // namespace
