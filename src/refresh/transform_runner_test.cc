// The transform runner: exit codes, log tails with secrets redacted, timeouts, the environment
// and PATH the child sees, and the real SQLMesh (project venv) over raw views of Iceberg tables.
#include "refresh/transform_runner.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <thread>

#include "common/interrupt.h"
#include "common/process.h"
#include "common/redact.h"
#include "common/test_paths.h"
#include "refresh/analytics.h"
#include "refresh/analytics_test_support.h"
#include "refresh/raw_columns.h"

namespace databox::refresh {
namespace {

using iceberg::Type;
using testing::Field;

class TransformRunnerTest : public testing::ProjectFixture {
 protected:
  //! Reloads the project with [project.transform] command = `command_toml` (a TOML array).
  void UseCommand(const std::string& command_toml) {
    UseRegistry("[project.transform]\ncommand = " + command_toml + "\n" + testing::kTestRegistry);
  }

  TransformOptions Options() const {
    TransformOptions options;
    options.run_dir = dir_ / "run";
    return options;
  }
};

TEST_F(TransformRunnerTest, FailingCommandGivesItsExitCodeAndARedactedLogTail) {
  const std::string secret = "hunter2-transform-secret";
  RegisterSecret(secret);
  ::setenv("DATABOX_TEST_TRANSFORM_SECRET", secret.c_str(), 1);
  UseCommand(
      R"(["sh", "-c", "echo first; echo token=$DATABOX_TEST_TRANSFORM_SECRET; echo boom >&2; exit 3"])");

  auto result = RunTransform(*workspace_, Options());
  ::unsetenv("DATABOX_TEST_TRANSFORM_SECRET");
  ASSERT_TRUE(result.has_value()) << result.error().ToString();
  EXPECT_FALSE(result->ok);
  ASSERT_EQ(result->steps.size(), 1u);
  EXPECT_EQ(result->exit_code(), 3);
  EXPECT_FALSE(result->timed_out());
  EXPECT_NE(result->log_tail.find("boom"), std::string::npos) << result->log_tail;
  EXPECT_NE(result->log_tail.find("token=***"), std::string::npos) << result->log_tail;
  EXPECT_EQ(result->log_tail.find(secret), std::string::npos) << result->log_tail;
  EXPECT_EQ(result->log_path, dir_ / "run" / "transform.log");
}

TEST_F(TransformRunnerTest, LogTailKeepsTheEndOfALongLog) {
  UseCommand(R"(["sh", "-c", "i=0; while [ $i -lt 2000 ]; do echo line$i; i=$((i+1)); done"])");
  TransformOptions options = Options();
  options.log_tail_bytes = 64;
  auto result = RunTransform(*workspace_, options);
  ASSERT_TRUE(result.has_value()) << result.error().ToString();
  EXPECT_TRUE(result->ok);
  EXPECT_LE(result->log_tail.size(), 64u);
  EXPECT_TRUE(result->log_tail.ends_with("line1999\n")) << result->log_tail;
  EXPECT_TRUE(result->log_tail.starts_with("line")) << result->log_tail;  // whole lines
}

TEST_F(TransformRunnerTest, TimeoutStopsTheProcessGroup) {
  UseCommand(R"(["sh", "-c", "echo started; sleep 30 & wait"])");
  TransformOptions options = Options();
  options.timeout = std::chrono::milliseconds(300);
  options.kill_grace = std::chrono::milliseconds(2000);
  auto result = RunTransform(*workspace_, options);
  ASSERT_TRUE(result.has_value()) << result.error().ToString();
  EXPECT_FALSE(result->ok);
  EXPECT_TRUE(result->timed_out());
  EXPECT_EQ(result->exit_code(), 128 + SIGTERM);
  EXPECT_LT(result->duration, std::chrono::seconds(10));
  EXPECT_NE(result->log_tail.find("started"), std::string::npos);
  EXPECT_NE(result->log_tail.find("timed out"), std::string::npos);
}

TEST_F(TransformRunnerTest, SigintStopsTheRunningStepAndTheResultIsInterrupted) {
  // The signal goes once the child runs (it creates `started`): on a loaded machine starting it
  // can take longer than any fixed delay, and a SIGINT before the start interrupts nothing.
  const std::filesystem::path started = dir_ / "started";
  UseCommand(R"(["sh", "-c", "touch ')" + started.string() +
             R"('; echo started; sleep 30 & wait"])");
  InstallInterruptHandlers();
  std::thread signaller([started] {
    for (int i = 0; i < 600 && !std::filesystem::exists(started); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    ::kill(::getpid(), SIGINT);
  });
  auto result = RunTransform(*workspace_, Options());
  signaller.join();
  ClearInterruptForTest();
  ASSERT_TRUE(result.has_value()) << result.error().ToString();
  EXPECT_FALSE(result->ok);
  EXPECT_TRUE(result->interrupted);
  EXPECT_FALSE(result->timed_out());
  EXPECT_EQ(result->exit_code(), 128 + SIGTERM);
  EXPECT_LT(result->duration, std::chrono::seconds(10));
  EXPECT_NE(result->log_tail.find("interrupted by SIGINT"), std::string::npos) << result->log_tail;
  // Not a success: the raw columns of this run are not saved.
  EXPECT_FALSE(std::filesystem::exists(RawColumnsSnapshotPath(*registry_)));
}

TEST_F(TransformRunnerTest, ASuccessSavesTheRawColumnsItRanOn) {
  UseCommand(R"(["true"])");
  CreateTable("alpha", "t",
              iceberg::Schema(0, {Field(1, "id", Type::Long()), Field(2, "name", Type::String())}));
  auto result = RunTransform(*workspace_, Options());
  ASSERT_TRUE(result.has_value()) << result.error().ToString();
  EXPECT_TRUE(result->ok);
  EXPECT_EQ(result->raw_columns_problem, "");
  auto saved = LoadRawColumnsSnapshot(RawColumnsSnapshotPath(*registry_));
  ASSERT_TRUE(saved.has_value()) << saved.error().ToString();
  ASSERT_TRUE(saved->has_value());
  EXPECT_EQ((*saved)->tables.at("raw_alpha.t"),
            (std::vector<RawColumn>{{"id", "long"}, {"name", "string"}}));
}

TEST(PreviewFoundChangesTest, TellsADifferenceSummaryFromAnError) {
  const std::string summary = "**Summary of differences from `prod`:**\n**Added Models:**\n";
  EXPECT_TRUE(PreviewFoundChanges(1, summary));
  EXPECT_FALSE(PreviewFoundChanges(0, summary));
  EXPECT_FALSE(PreviewFoundChanges(1, "Error: cannot parse model\n"));
  EXPECT_FALSE(PreviewFoundChanges(1, summary + "Traceback (most recent call last):\n"));
  EXPECT_FALSE(PreviewFoundChanges(1, summary + "Error: something\n"));
  EXPECT_FALSE(PreviewFoundChanges(2, summary));
}

TEST_F(TransformRunnerTest, ChildSeesTheVenvFirstOnPathTheProjectVariablesAndNoStdin) {
  std::filesystem::create_directories(dir_ / "venv" / "bin");
  std::ofstream(dir_ / "venv" / "bin" / "fake-sqlmesh")
      << "#!/bin/sh\necho raw=$DATABOX_RAW_VIEWS_DB\necho cache=$SQLMESH__CACHE_DIR\n"
         "echo cwd=$(pwd)\ncat\necho stdin-closed\n";
  std::filesystem::permissions(dir_ / "venv" / "bin" / "fake-sqlmesh",
                               std::filesystem::perms::owner_all);
  UseCommand(R"(["fake-sqlmesh"])");
  TransformOptions options = Options();
  options.venv_dir = dir_ / "venv";
  auto result = RunTransform(*workspace_, options);
  ASSERT_TRUE(result.has_value()) << result.error().ToString();
  EXPECT_TRUE(result->ok) << result->log_tail;
  const std::string state = (dir_ / ".databox").string();
  EXPECT_NE(result->log_tail.find("raw=" + state + "/lake.duckdb"), std::string::npos)
      << result->log_tail;
  EXPECT_NE(result->log_tail.find("cache=" + (dir_ / "run" / "sqlmesh_cache").string()),
            std::string::npos);
  EXPECT_NE(result->log_tail.find("cwd=" + (dir_ / "run").string()), std::string::npos);
  EXPECT_NE(result->log_tail.find("stdin-closed"), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(dir_ / "run" / "sqlmesh_cache"));
}

TEST_F(TransformRunnerTest, MissingProgramIsAnErrorNamingIt) {
  UseCommand(R"(["databox-no-such-program-xyz"])");
  auto result = RunTransform(*workspace_, Options());
  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.error().kind, ErrorKind::kNotFound);
  EXPECT_NE(result.error().message.find("databox-no-such-program-xyz"), std::string::npos);
}

TEST_F(TransformRunnerTest, DefaultCommandAddsTheRestateStepOnceProdExists) {
  ASSERT_TRUE(IsDefaultTransformCommand(*registry_));
  const std::string project = (dir_ / "transform").string();
  auto first = TransformCommands(*registry_, false);
  ASSERT_EQ(first.size(), 1u);
  EXPECT_EQ(first[0], (std::vector<std::string>{"sqlmesh", "-p", project, "plan", "prod",
                                                "--auto-apply", "--no-prompts"}));
  auto later = TransformCommands(*registry_, true);
  ASSERT_EQ(later.size(), 2u);
  EXPECT_EQ(later[1],
            (std::vector<std::string>{"sqlmesh", "-p", project, "plan", "prod", "--auto-apply",
                                      "--no-prompts", "--restate-model", "*"}));
  EXPECT_EQ(SqlMeshProdExists(dir_ / "absent.duckdb").value_or(true), false);
}

TEST(ResolveProgramTest, SearchesThePathInOrder) {
  auto sh = ResolveProgram("sh", "/nonexistent:/bin:/usr/bin");
  ASSERT_TRUE(sh.has_value());
  EXPECT_EQ(sh->parent_path(), "/bin");
  EXPECT_FALSE(ResolveProgram("sh", "/nonexistent").has_value());
  EXPECT_EQ(*ResolveProgram("./x/y", ""), "./x/y");
}

//! The example project's config.yaml and platform_health model (reading the test registry's
//! alias), and one model of the test's own, run by the real SQLMesh.
class SqlMeshTest : public TransformRunnerTest {
 protected:
  void SetUp() override {
    TransformRunnerTest::SetUp();
    const std::filesystem::path venv = test_paths::VenvDir();
    if (!std::filesystem::exists(venv / "bin" / "sqlmesh")) {
      FAIL() << "no sqlmesh in " << venv << ": run scripts/setup";
    }
    const std::filesystem::path project = dir_ / "transform";
    std::filesystem::create_directories(project / "models");
    std::filesystem::copy_file(
        std::filesystem::path(test_paths::SourceDir()) / "examples/databox/transform/config.yaml",
        project / "config.yaml");
    std::stringstream health;
    health << std::ifstream(std::filesystem::path(test_paths::SourceDir()) /
                            "examples/databox/transform/models/analytics/platform_health.sql")
                  .rdbuf();
    std::ofstream(project / "models" / "platform_health.sql")
        << std::regex_replace(health.str(), std::regex("polaris_aws\\."), "lake.");
    std::ofstream(project / "models" / "bird_names.sql")
        << "MODEL (name analytics.bird_names, kind FULL);\n"
           "SELECT id, upper(name) AS name_upper, mass FROM lake.raw_alpha.t\n";
  }

  TransformOptions SqlMeshOptions() const {
    TransformOptions options = Options();
    options.venv_dir = test_paths::VenvDir();
    options.timeout = std::chrono::minutes(5);
    return options;
  }
};

TEST_F(SqlMeshTest, ModelsReadRawViewsAndARerunRestatesThemWithNewData) {
  CreateTable("alpha", "t",
              iceberg::Schema(0, {Field(1, "id", Type::Long()), Field(2, "name", Type::String())}));
  Append("alpha", "t", "SELECT * FROM (VALUES (1, 'wren'), (2, 'jay')) v(id, name)");
  Evolve("alpha", "t",
         iceberg::Schema(0, {Field(1, "id", Type::Long()), Field(2, "name", Type::String()),
                             Field(3, "mass", Type::Double())}));
  Append("alpha", "t", "SELECT 3 AS id, 'owl' AS name, 150.0 AS mass");
  AddLoadStatus("alpha", "('1700000000.1', 'alpha', 0, TIMESTAMP '2024-01-01 00:00:00', 3)");
  ASSERT_TRUE(RefreshRawViews(*workspace_).has_value());

  auto first = RunTransform(*workspace_, SqlMeshOptions());
  ASSERT_TRUE(first.has_value()) << first.error().ToString();
  ASSERT_TRUE(first->ok) << first->log_tail;
  EXPECT_EQ(first->steps.size(), 1u);  // prod did not exist: no restate step
  EXPECT_EQ(AnalyticsRows("SELECT * FROM analytics.bird_names ORDER BY id"),
            (std::vector<std::string>{"1|WREN|NULL", "2|JAY|NULL", "3|OWL|150.0"}));
  EXPECT_EQ(
      AnalyticsRows(
          "SELECT source, load_id, rows_loaded FROM analytics.platform_health ORDER BY source"),
      (std::vector<std::string>{"alpha|1700000000.1|3", "beta|NULL|NULL"}));

  Append("alpha", "t", "SELECT 4 AS id, 'kite' AS name, 500.0 AS mass");
  ASSERT_TRUE(RefreshRawViews(*workspace_).has_value());
  auto second = RunTransform(*workspace_, SqlMeshOptions());
  ASSERT_TRUE(second.has_value()) << second.error().ToString();
  ASSERT_TRUE(second->ok) << second->log_tail;
  EXPECT_EQ(second->steps.size(), 2u);  // prod existed: plan, then restate
  EXPECT_EQ(AnalyticsRows("SELECT count(*), max(name_upper) FROM analytics.bird_names"),
            std::vector<std::string>{"4|WREN"});
}

}  // namespace
}  // namespace databox::refresh
