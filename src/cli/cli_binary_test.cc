// Runs the built `databox` binary as a user would and checks exit codes and output.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "cli/binary_test_support.h"
#include "common/clock.h"
#include "common/test_paths.h"
#include "load/source_lock.h"

namespace {

namespace fs = std::filesystem;
namespace test_paths = databox::test_paths;

using databox::cli::testing::Contains;
using databox::cli::testing::RunDatabox;
using databox::cli::testing::RunResult;

//! Checks that `json` is `id` as databox prints an integer in JSON: a number up to 2^53, its
//! decimal text beyond (jq and JavaScript read numbers as doubles). Snapshot ids are random 63-bit
//! numbers, so the id, read from elsewhere, decides which of the two forms is right.
void ExpectJsonInteger(const nlohmann::json& json, int64_t id, const std::string& what) {
  constexpr int64_t kExact = int64_t{1} << 53;
  if (id <= kExact && id >= -kExact) {
    EXPECT_TRUE(json.is_number_integer()) << what << " should be the number " << id << ": " << json;
    EXPECT_EQ(json, nlohmann::json(id)) << what;
  } else {
    EXPECT_EQ(json, nlohmann::json(std::to_string(id))) << what << " should be a string";
  }
}

TEST(DataboxBinary, HelpListsEveryCommand) {
  auto r = RunDatabox({"--help"});
  EXPECT_EQ(r.exit_code, 0);
  for (const char* cmd : {"init", "validate", "sources", "run", "refresh", "transform", "status",
                          "runs", "loads", "inspect", "query", "catalog", "maintain"}) {
    EXPECT_TRUE(Contains(r.out, std::string("  ") + cmd)) << cmd << "\n" << r.out;
  }
  EXPECT_TRUE(Contains(r.out, "Exit codes"));
}

TEST(DataboxBinary, VersionNamesDuckDb) {
  auto r = RunDatabox({"--version"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_TRUE(Contains(r.out, "databox ")) << r.out;
  EXPECT_TRUE(Contains(r.out, "DuckDB v1.5.5")) << r.out;
}

TEST(DataboxBinary, EverySubcommandHasHelp) {
  for (const char* cmd : {"init", "validate", "sources", "run", "refresh", "transform", "status",
                          "runs", "loads", "inspect", "query", "catalog", "maintain"}) {
    auto r = RunDatabox({cmd, "--help"});
    EXPECT_EQ(r.exit_code, 0) << cmd;
    EXPECT_TRUE(Contains(r.out, std::string("Usage: databox ") + cmd)) << cmd << ": " << r.out;
  }
}

TEST(DataboxBinary, UsageErrorsExitTwo) {
  auto unknown = RunDatabox({"frobnicate"});
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_TRUE(Contains(unknown.err, "unknown command 'frobnicate'")) << unknown.err;

  auto bad_option = RunDatabox({"sources", "--colour"});
  EXPECT_EQ(bad_option.exit_code, 2);
  EXPECT_TRUE(Contains(bad_option.err, "--colour")) << bad_option.err;

  auto nothing = RunDatabox({});
  EXPECT_EQ(nothing.exit_code, 2);
}

constexpr const char* kCommands[] = {"validate", "sources", "run",   "refresh", "status",  "runs",
                                     "loads",    "inspect", "query", "catalog", "maintain"};

std::string ExampleRegistry() { return test_paths::SourceDir() + "/examples/databox/databox.toml"; }

TEST(DataboxBinary, ConfigIsAcceptedBeforeOrAfterTheCommand) {
  const std::string example = ExampleRegistry();
  for (const auto& args :
       std::vector<std::vector<std::string>>{{"--config", example, "validate"},
                                             {"validate", "--config", example},
                                             {"validate", "--config=" + example}}) {
    auto r = RunDatabox(args, {"DATABOX_CONFIG=/nonexistent/databox.toml"});
    EXPECT_EQ(r.exit_code, 0) << args[0] << " " << args[1] << "\n" << r.err;
    EXPECT_EQ(r.out, example + ": valid\n");
    EXPECT_EQ(r.err, "");
  }
  // Without --config the environment names the registry.
  auto from_env = RunDatabox({"validate"}, {"DATABOX_CONFIG=" + example});
  EXPECT_EQ(from_env.exit_code, 0) << from_env.err;
  EXPECT_EQ(from_env.out, example + ": valid\n");
}

TEST(DataboxBinary, ShortHelpOnEveryCommand) {
  for (const char* cmd : kCommands) {
    auto r = RunDatabox({cmd, "-h"});
    EXPECT_EQ(r.exit_code, 0) << cmd << ": " << r.err;
    EXPECT_TRUE(Contains(r.out, std::string("Usage: databox ") + cmd)) << cmd << ": " << r.out;
    EXPECT_EQ(r.err, "") << cmd;
  }
  auto status = RunDatabox({"status", "-h"});
  EXPECT_TRUE(Contains(status.out, "--json")) << status.out;
  EXPECT_TRUE(Contains(status.out, "--config FILE")) << status.out;
  auto top = RunDatabox({"-h"});
  EXPECT_EQ(top.exit_code, 0);
  EXPECT_TRUE(Contains(top.out, "Exit codes")) << top.out;
}

TEST(DataboxBinary, HelpListsEveryOptionOfTheCommand) {
  auto r = RunDatabox({"refresh", "--help"});
  EXPECT_EQ(r.exit_code, 0);
  for (const char* option : {"--source S", "--max-workers N", "--skip-transform", "--json",
                             "--config FILE", "-h,--help"}) {
    EXPECT_TRUE(Contains(r.out, option)) << option << "\n" << r.out;
  }
  EXPECT_TRUE(Contains(r.out, "SQLMesh only if every source passed")) << r.out;
  auto bootstrap = RunDatabox({"catalog", "bootstrap", "--help"});
  EXPECT_EQ(bootstrap.exit_code, 0);
  EXPECT_TRUE(Contains(bootstrap.out, "Usage: databox catalog bootstrap")) << bootstrap.out;
  EXPECT_TRUE(Contains(bootstrap.out, "--management-uri URL")) << bootstrap.out;
}

TEST(DataboxBinary, HelpCommandPrintsTheCommandsHelp) {
  auto run = RunDatabox({"help", "run"});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_TRUE(Contains(run.out, "Usage: databox run")) << run.out;
  EXPECT_TRUE(Contains(run.out, "--resume")) << run.out;
  for (const char* cmd : kCommands) {
    auto help = RunDatabox({"help", cmd});
    auto flag = RunDatabox({cmd, "--help"});
    EXPECT_EQ(help.exit_code, 0) << cmd;
    EXPECT_EQ(help.out, flag.out) << cmd;
  }
  EXPECT_EQ(RunDatabox({"help", "catalog", "bootstrap"}).out,
            RunDatabox({"catalog", "bootstrap", "--help"}).out);
  auto top = RunDatabox({"help"});
  EXPECT_EQ(top.exit_code, 0);
  EXPECT_EQ(top.out, RunDatabox({"--help"}).out);

  auto unknown = RunDatabox({"help", "frobnicate"});
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_TRUE(Contains(unknown.err, "unknown command 'frobnicate'")) << unknown.err;
}

TEST(DataboxBinary, UnknownOptionIsNamedWithAHintToHelp) {
  auto after = RunDatabox({"status", "--colour"});
  EXPECT_EQ(after.exit_code, 2);
  EXPECT_EQ(after.err, "databox status: unknown option '--colour' (see `databox status --help`)\n");
  EXPECT_EQ(after.out, "");
  auto before = RunDatabox({"--colour", "status"});
  EXPECT_EQ(before.exit_code, 2);
  EXPECT_EQ(before.err, "databox: unknown option '--colour' (see `databox --help`)\n");
  // An unknown option where a positional belongs is named, not the missing positional.
  auto run = RunDatabox({"run", "-x"});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_TRUE(Contains(run.err, "unknown option '-x'")) << run.err;
}

TEST(DataboxBinary, OptionValuesAndPositionalsAreChecked) {
  auto expect_usage_error = [](const std::vector<std::string>& args, const std::string& named) {
    auto r = RunDatabox(args);
    EXPECT_EQ(r.exit_code, 2) << args[0] << " " << named;
    EXPECT_TRUE(Contains(r.err, named)) << r.err;
    EXPECT_TRUE(Contains(r.err, "--help`")) << r.err;
  };
  expect_usage_error({"refresh", "--max-workers", "1", "--max-workers", "2"}, "--max-workers");
  expect_usage_error({"refresh", "--max-workers", "0"}, "'0' is not a whole number >= 1");
  expect_usage_error({"refresh", "--max-workers=many"}, "'many' is not a whole number >= 1");
  expect_usage_error({"refresh", "--max-workers"}, "--max-workers");
  expect_usage_error({"refresh", "--source", "noaa", "usgs"}, "unexpected argument 'usgs'");
  expect_usage_error({"sources", "--json=yes"}, "json");
  expect_usage_error({"status", "extra"}, "unexpected argument 'extra'");
  expect_usage_error({"run"}, "SOURCE is required");
  expect_usage_error({"catalog"}, "databox catalog:");
  expect_usage_error({"catalog", "frobnicate"}, "unknown command 'frobnicate'");
  expect_usage_error({"runs", "--limit", "0"}, "'0' is not a whole number >= 1");
  expect_usage_error({"runs", "show"}, "RUN_ID is required");
  expect_usage_error({"loads", "remove", "noaa"}, "LOAD_ID is required");
  expect_usage_error({"loads", "noaa", "extra"}, "unknown command 'extra'");
  expect_usage_error({"catalog", "describe"}, "TABLE is required");
  expect_usage_error({"query", "select 1", "--format", "xml"}, "--format");
  expect_usage_error({"maintain", "--expire-snapshots", "--all", "--retain-last", "0"},
                     "--retain-last");
  // After `--` everything is a positional: here the table name, refused before any work.
  auto r = RunDatabox({"inspect", "--", "--json"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(Contains(r.err, "expected NAMESPACE.TABLE")) << r.err;
}

//! A minimal valid registry with one live (not replayed) source whose token is a secret.
std::string MinimalRegistry(const std::string& source_name, const std::string& extra_resource_key) {
  return "[project]\nstate_dir = \"state\"\n\n"
         "[[source]]\n"
         "name = \"" +
         source_name +
         "\"\n"
         "eligibility = \"routine\"\n"
         "kind = \"rest_json\"\n"
         "base_url = \"https://api.example.org/v1\"\n"
         "[source.auth]\n"
         "type = \"header\"\n"
         "name = \"X-Token\"\n"
         "secret = \"${DATABOX_TEST_TOKEN}\"\n"
         "[[source.resource]]\n"
         "name = \"items\"\n"
         "path = \"/items\"\n"
         "primary_key = [\"id\"]\n"
         "write_disposition = \"merge\"\n" +
         extra_resource_key +
         "[[source.resource]]\n"
         "name = \"items\"\n"
         "path = \"/items2\"\n"
         "write_disposition = \"append\"\n";
}

fs::path WriteTemp(const std::string& name, const std::string& text) {
  const fs::path dir = fs::temp_directory_path() / ("databox_cli_cfg_" + std::to_string(getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / name) << text;
  return dir / name;
}

TEST(DataboxBinary, ValidateAcceptsTheExampleRegistry) {
  const std::string example = test_paths::SourceDir() + "/examples/databox/databox.toml";
  auto r = RunDatabox({"--config", example, "validate"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(Contains(r.out, "valid")) << r.out;
}

TEST(DataboxBinary, ValidateReportsEveryProblemWithFileAndLineAndNoSecret) {
  // Bad source name (line 5), the token variable missing from the environment (line 12), an
  // unknown key (line 18), and a second resource "items" (its table opens on line 19).
  const fs::path cfg = WriteTemp("bad.toml", MinimalRegistry("Bad-Name", "colour = \"red\"\n"));
  auto missing = RunDatabox({"--config", cfg.string(), "validate"});
  EXPECT_EQ(missing.exit_code, 2);
  const std::string file = cfg.string();
  EXPECT_TRUE(Contains(missing.err, file + ":5:")) << missing.err;
  EXPECT_TRUE(Contains(missing.err, "Bad-Name")) << missing.err;
  EXPECT_TRUE(Contains(missing.err, file + ":18:")) << missing.err;
  EXPECT_TRUE(Contains(missing.err, "colour")) << missing.err;
  EXPECT_TRUE(Contains(missing.err, file + ":19:")) << missing.err;
  EXPECT_TRUE(Contains(missing.err, "declared twice")) << missing.err;
  EXPECT_TRUE(Contains(missing.err, file + ":12:")) << missing.err;
  EXPECT_TRUE(Contains(missing.err, "DATABOX_TEST_TOKEN")) << missing.err;

  // With the variable set, its value appears in no output, even though problems remain.
  const std::string secret = "sekret-Value-9f3b7c";
  auto with_secret =
      RunDatabox({"--config", cfg.string(), "validate"}, {"DATABOX_TEST_TOKEN=" + secret});
  EXPECT_EQ(with_secret.exit_code, 2);
  EXPECT_FALSE(Contains(with_secret.err + with_secret.out, secret));
  auto sources =
      RunDatabox({"--config", cfg.string(), "sources", "--json"}, {"DATABOX_TEST_TOKEN=" + secret});
  EXPECT_EQ(sources.exit_code, 2);
  EXPECT_FALSE(Contains(sources.err + sources.out, secret));
}

TEST(DataboxBinary, SourcesListsTheExampleSources) {
  const std::string example = test_paths::SourceDir() + "/examples/databox/databox.toml";
  auto r = RunDatabox({"--config", example, "sources", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* name :
       {"ebird", "noaa", "usgs", "usgs_earthquakes", "gbif", "xeno_canto", "avonet", "usfws"}) {
    EXPECT_TRUE(Contains(r.out, std::string("\"") + name + "\"")) << name;
  }
  EXPECT_TRUE(Contains(r.out, "raw_noaa"));
  EXPECT_TRUE(Contains(r.out, "explicit"));
}

TEST(DataboxBinary, RunAndRefreshPrintAndRecordTheRdbRowsTheySkipped) {
  // The usgs recordings with two rows cut short before the first site of the sites response (the
  // YAML text escapes newlines and tabs, so "\n" and "\t" here are two characters each).
  const fs::path dir = fs::temp_directory_path() / ("databox_cli_rdb_" + std::to_string(getpid()));
  fs::remove_all(dir);
  const fs::path recordings = dir / "recordings";
  fs::create_directories(recordings / "usgs");
  const std::string first_site = R"(\nUSGS\t01106000\t)";
  const std::string cut_short = R"(USGS\t09999998\nUSGS\t09999999\tCUT SHORT\n)";
  const int short_rows = 2;
  int edited = 0;
  for (const auto& file : fs::directory_iterator(fs::path(test_paths::RecordingsDir()) / "usgs")) {
    std::string text = databox::cli::testing::Slurp(file.path());
    if (const auto pos = text.find(first_site); pos != std::string::npos) {
      text.insert(pos + 2, cut_short);
      ++edited;
    }
    std::ofstream(recordings / "usgs" / file.path().filename()) << text;
  }
  ASSERT_GT(edited, 0) << "no recorded sites response starts with site 01106000 any more";
  std::string registry =
      databox::cli::testing::Slurp(test_paths::SourceDir() + "/examples/databox/databox.toml");
  const std::string replay = "replay = \"../../fixtures/recordings\"";
  const auto pos = registry.find(replay);
  ASSERT_NE(pos, std::string::npos) << "the example registry no longer replays recordings";
  registry.replace(pos, replay.size(), "replay = \"" + recordings.string() + "\"");
  std::ofstream(dir / "databox.toml") << registry;

  auto r = RunDatabox({"--config", (dir / "databox.toml").string(), "run", "usgs"}, {}, dir);
  const std::string note = "source usgs, resource sites: skipped " + std::to_string(short_rows) +
                           " RDB row(s) with fewer fields than the header (first at line ";
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(Contains(r.out, "  note: " + note)) << r.out;
  // The run history keeps the same note (state_dir = ".databox" beside the registry).
  EXPECT_TRUE(Contains(databox::cli::testing::Slurp(dir / ".databox" / "runs.jsonl"), note));
  // A refresh prints it under its source in the summary too.
  auto refreshed = RunDatabox({"--config", (dir / "databox.toml").string(), "refresh", "--source",
                               "usgs", "--skip-transform"},
                              {}, dir);
  EXPECT_EQ(refreshed.exit_code, 0) << refreshed.out << refreshed.err;
  EXPECT_TRUE(Contains(refreshed.out, "  usgs: ok")) << refreshed.out;
  EXPECT_TRUE(Contains(refreshed.out, "    note: " + note)) << refreshed.out;
  fs::remove_all(dir);
}

TEST(DataboxBinary, RunRefusesASourceAnotherProcessIsLoading) {
  const fs::path dir = fs::temp_directory_path() / ("databox_cli_lock_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::string registry =
      databox::cli::testing::Slurp(test_paths::SourceDir() + "/examples/databox/databox.toml");
  const std::string replay = "replay = \"../../fixtures/recordings\"";
  const auto pos = registry.find(replay);
  ASSERT_NE(pos, std::string::npos) << "the example registry no longer replays recordings";
  registry.replace(pos, replay.size(), "replay = \"" + test_paths::RecordingsDir() + "\"");
  std::ofstream(dir / "databox.toml") << registry;
  const std::string config = (dir / "databox.toml").string();

  // This test process plays the other load (state_dir = ".databox" beside the registry).
  std::optional<databox::load::SourceLock> other;
  auto taken = databox::load::SourceLock::Acquire(dir / ".databox" / "locks", "usgs");
  ASSERT_TRUE(taken) << taken.error().message;
  other.emplace(std::move(*taken));
  auto refused = RunDatabox({"--config", config, "run", "usgs"}, {}, dir);
  EXPECT_EQ(refused.exit_code, 1) << refused.out << refused.err;
  const std::string why = "source usgs is being loaded by another databox process (pid " +
                          std::to_string(getpid()) + " since ";
  EXPECT_TRUE(Contains(refused.err, why)) << refused.err;
  EXPECT_TRUE(Contains(databox::cli::testing::Slurp(dir / ".databox" / "runs.jsonl"),
                       "being loaded by another databox process"));
  EXPECT_FALSE(fs::exists(dir / ".databox" / "loads" / "usgs")) << "nothing was fetched";
  // A refresh loads the other sources and reports this one as failed.
  auto refreshed = RunDatabox(
      {"--config", config, "refresh", "--source", "usgs", "--source", "noaa", "--skip-transform"},
      {}, dir);
  EXPECT_EQ(refreshed.exit_code, 1) << refreshed.out << refreshed.err;
  EXPECT_TRUE(Contains(refreshed.out, "  noaa: ok")) << refreshed.out;
  EXPECT_TRUE(Contains(refreshed.out + refreshed.err, why)) << refreshed.out << refreshed.err;

  other.reset();
  auto loaded = RunDatabox({"--config", config, "run", "usgs"}, {}, dir);
  EXPECT_EQ(loaded.exit_code, 0) << loaded.out << loaded.err;
  fs::remove_all(dir);
}

//! A copy of the example registry in a fresh folder, replaying the shared recordings; its
//! state_dir (.databox) is beside it. Returns the registry's path.
fs::path ExampleRegistryIn(const fs::path& dir) {
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::string registry = databox::cli::testing::Slurp(ExampleRegistry());
  const std::string replay = "replay = \"../../fixtures/recordings\"";
  const auto pos = registry.find(replay);
  EXPECT_NE(pos, std::string::npos) << "the example registry no longer replays recordings";
  if (pos != std::string::npos) {
    registry.replace(pos, replay.size(), "replay = \"" + test_paths::RecordingsDir() + "\"");
  }
  std::ofstream(dir / "databox.toml") << registry;
  return dir / "databox.toml";
}

TEST(DataboxBinary, RunsListsAndShowsTheRunHistory) {
  const fs::path dir = fs::temp_directory_path() / ("databox_cli_runs_" + std::to_string(getpid()));
  const std::string config = ExampleRegistryIn(dir).string();
  auto none = RunDatabox({"runs", "--config", config}, {}, dir);
  EXPECT_EQ(none.exit_code, 0) << none.err;
  EXPECT_EQ(none.out, "no runs recorded yet\n");

  ASSERT_EQ(RunDatabox({"--config", config, "run", "usgs"}, {}, dir).exit_code, 0);
  {  // A second run fails: another process (this test) holds the source's lock.
    auto lock = databox::load::SourceLock::Acquire(dir / ".databox" / "locks", "usgs");
    ASSERT_TRUE(lock) << lock.error().message;
    ASSERT_EQ(RunDatabox({"--config", config, "run", "usgs"}, {}, dir).exit_code, 1);
  }
  auto list = RunDatabox({"runs", "--config", config}, {}, dir);
  ASSERT_EQ(list.exit_code, 0) << list.err;
  EXPECT_TRUE(Contains(list.out, "RUN ID  ")) << list.out;
  EXPECT_TRUE(Contains(list.out, "  failed  ")) << list.out;
  EXPECT_TRUE(Contains(list.out, "  0 ok, 1 failed\n")) << list.out;
  EXPECT_TRUE(Contains(list.out, "  ok      ")) << list.out;
  EXPECT_TRUE(Contains(list.out, "  1 ok, 0 failed\n")) << list.out;

  auto json = RunDatabox({"runs", "--json", "--limit", "1", "--config", config}, {}, dir);
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const auto runs = nlohmann::json::parse(json.out);
  ASSERT_EQ(runs.size(), 1u) << json.out;
  const std::string newest = runs[0]["run_id"];
  EXPECT_EQ(runs[0]["status"], "failed");
  EXPECT_EQ(runs[0]["exit_code"], 1);
  auto failed = RunDatabox({"runs", "show", newest, "--config", config}, {}, dir);
  EXPECT_TRUE(Contains(failed.out, "  usgs: failed in load\n")) << failed.out;
  EXPECT_TRUE(Contains(failed.out, "    error     source usgs is being loaded by another"))
      << failed.out;

  // The first run, the `run usgs`, by a prefix of its id.
  auto all = nlohmann::json::parse(RunDatabox({"runs", "--json", "--config", config}, {}, dir).out);
  const std::string first = all.back()["run_id"];
  auto show =
      RunDatabox({"runs", "show", first.substr(0, first.size() - 1), "--config", config}, {}, dir);
  ASSERT_EQ(show.exit_code, 0) << show.err;
  EXPECT_TRUE(Contains(show.out, "run " + first + " (run)\n")) << show.out;
  EXPECT_TRUE(Contains(show.out, "  usgs: ok\n")) << show.out;
  EXPECT_TRUE(Contains(show.out, "    snapshot  raw_usgs.sites ")) << show.out;
  auto trace = nlohmann::json::parse(
      RunDatabox({"runs", "show", first, "--json", "--config", config}, {}, dir).out);
  EXPECT_EQ(trace["sources"][0]["source"], "usgs");
  EXPECT_GT(trace["sources"][0]["rows"].get<int64_t>(), 0);
  // Each snapshot id as the text of `runs show` prints it decides its form in the JSON.
  ASSERT_FALSE(trace["sources"][0]["snapshots"].empty()) << trace;
  for (const auto& [table, id] : trace["sources"][0]["snapshots"].items()) {
    const std::string label = "    snapshot  " + table + " ";
    const std::size_t at = show.out.find(label);
    ASSERT_NE(at, std::string::npos) << label << "\n" << show.out;
    const std::size_t from = at + label.size();
    ExpectJsonInteger(id, std::stoll(show.out.substr(from, show.out.find('\n', from) - from)),
                      "runs show --json: snapshot of " + table);
  }

  auto missing = RunDatabox({"runs", "show", "1999-01-01", "--config", config}, {}, dir);
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_TRUE(Contains(missing.err, "databox runs show: no run with id '1999-01-01'"))
      << missing.err;
  EXPECT_TRUE(Contains(missing.err, newest)) << missing.err;
  fs::remove_all(dir);
}

//! ExampleRegistryIn(dir) with [project.transform] command = `command` (a TOML array).
fs::path ExampleRegistryWithTransform(const fs::path& dir, const std::string& command) {
  const fs::path config = ExampleRegistryIn(dir);
  std::string registry = databox::cli::testing::Slurp(config);
  const std::string transform = "[project.transform]\n";
  const auto at = registry.find(transform);
  EXPECT_NE(at, std::string::npos) << "the example registry has no [project.transform]";
  if (at != std::string::npos)
    registry.insert(at + transform.size(), "command = " + command + "\n");
  std::ofstream(config) << registry;
  return config;
}

TEST(DataboxBinary, StatusShowsAgesInWordsAndHowTheLastTransformEnded) {
  const fs::path dir =
      fs::temp_directory_path() / ("databox_cli_status_" + std::to_string(getpid()));
  // A transform that fails with exit code 3 (a model that does not build).
  const fs::path config = ExampleRegistryWithTransform(dir, R"(["sh", "-c", "exit 3"])");
  auto none = RunDatabox({"status", "--config", config.string()}, {}, dir);
  EXPECT_EQ(none.exit_code, 0) << none.err;
  EXPECT_TRUE(Contains(none.out, "transform: never run (no refresh recorded)\n")) << none.out;

  auto refreshed =
      RunDatabox({"refresh", "--source", "usgs", "--config", config.string()}, {}, dir);
  ASSERT_EQ(refreshed.exit_code, 1) << refreshed.out << refreshed.err;
  // The run ended 2 h 5 min ago, as the history says once its time is moved back.
  const fs::path history = dir / ".databox" / "runs.jsonl";
  auto record = nlohmann::json::parse(databox::cli::testing::Slurp(history));
  const auto then = std::chrono::system_clock::now() - std::chrono::minutes(125);
  const std::string finished = databox::IsoAt(then);
  record["finished_at"] = finished;
  // A source's load ends at its own start plus its seconds: usgs's load ends then too.
  for (auto& source : record["sources"]) {
    source["started_at"] = databox::IsoAt(then - std::chrono::seconds(60));
    source["seconds"] = 60.0;
  }
  std::ofstream(history) << record.dump() << "\n";

  auto text = RunDatabox({"status", "--config", config.string()}, {}, dir);
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_TRUE(Contains(text.out, "usgs:\n  last load: ")) << text.out;
  EXPECT_TRUE(Contains(text.out, "  at " + finished + " (2 h 5 min ago)\n")) << text.out;
  EXPECT_TRUE(Contains(text.out, "transform: failed (exit 3) at " + finished +
                                     " (2 h 5 min ago), run " +
                                     record["run_id"].get<std::string>() + "\n"))
      << text.out;
  auto json = RunDatabox({"status", "--json", "--config", config.string()}, {}, dir);
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const auto status = nlohmann::json::parse(json.out);
  const auto& sources = status["sources"];
  const auto usgs = std::find_if(sources.begin(), sources.end(),
                                 [](const auto& s) { return s["source"] == "usgs"; });
  ASSERT_NE(usgs, sources.end()) << json.out;
  EXPECT_NEAR((*usgs)["last_load"]["age_seconds"].get<double>(), 125 * 60, 30) << json.out;
  EXPECT_EQ(status["transform"]["status"], "failed") << json.out;
  EXPECT_EQ(status["transform"]["exit_code"], 3) << json.out;
  EXPECT_EQ(status["transform"]["at"], finished) << json.out;
  fs::remove_all(dir);
}

// `databox transform` whose command is not installed is refused at preflight as `refresh` is:
// exit 2, the problem listed, no run recorded.
TEST(DataboxBinary, TransformWithoutItsCommandIsRefusedAtPreflightAndRecordsNoRun) {
  const fs::path dir =
      fs::temp_directory_path() / ("databox_cli_transform_preflight_" + std::to_string(getpid()));
  const fs::path config = ExampleRegistryWithTransform(dir, R"(["databox-test-no-such-sqlmesh"])");
  for (const char* command : {"transform", "refresh"}) {
    auto r = RunDatabox({command, "--config", config.string()}, {}, dir);
    EXPECT_EQ(r.exit_code, 2) << command << "\n" << r.out << r.err;
    EXPECT_TRUE(Contains(
        r.err, "databox " + std::string(command) + ": preflight failed; nothing was started:\n"))
        << r.err;
    EXPECT_TRUE(Contains(r.err, "transform command 'databox-test-no-such-sqlmesh' was not found"))
        << r.err;
    // Only a refresh can go on without the transform.
    EXPECT_EQ(Contains(r.err, "--skip-transform"), std::string(command) == "refresh") << r.err;
    EXPECT_FALSE(fs::exists(dir / ".databox" / "runs.jsonl")) << command;
  }
  fs::remove_all(dir);
}

// A refused preflight creates nothing: no state folder (where the workspace lock and the catalog
// live), whatever else the registry names. Nothing is there to clean up or to mistake for a run.
TEST(DataboxBinary, ARefusedPreflightCreatesNoStateFolder) {
  const fs::path dir =
      fs::temp_directory_path() / ("databox_cli_preflight_nothing_" + std::to_string(getpid()));
  const fs::path config = ExampleRegistryWithTransform(dir, R"(["databox-test-no-such-sqlmesh"])");
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"refresh"}, std::vector<std::string>{"refresh", "--json"},
        std::vector<std::string>{"transform"}}) {
    std::vector<std::string> full = args;
    full.insert(full.end(), {"--config", config.string()});
    auto r = RunDatabox(full, {}, dir);
    EXPECT_EQ(r.exit_code, 2) << args[0] << "\n" << r.out << r.err;
    EXPECT_TRUE(
        Contains(r.err, "databox " + args[0] + ": preflight failed; nothing was started:\n"))
        << r.err;
    EXPECT_FALSE(fs::exists(dir / ".databox")) << args[0] << " created the state folder";
    std::vector<std::string> entries;
    for (const auto& entry : fs::directory_iterator(dir)) {
      entries.push_back(entry.path().filename().string());
    }
    EXPECT_EQ(entries, std::vector<std::string>{"databox.toml"}) << args[0];
  }
  fs::remove_all(dir);
}

// A misspelt command or source is answered with the closest name, as the registry's unknown keys.
TEST(DataboxBinary, MisspeltCommandsAndSourcesNameTheClosestOne) {
  auto command = RunDatabox({"refesh"});
  EXPECT_EQ(command.exit_code, 2);
  EXPECT_TRUE(Contains(command.err, "unknown command 'refesh' (did you mean 'refresh'?)"))
      << command.err;
  auto help = RunDatabox({"help", "catalog", "lst"});
  EXPECT_EQ(help.exit_code, 2);
  EXPECT_TRUE(Contains(help.err, "unknown command 'lst' (did you mean 'list'?)")) << help.err;
  auto far = RunDatabox({"frobnicate"});
  EXPECT_FALSE(Contains(far.err, "did you mean")) << far.err;

  const fs::path dir =
      fs::temp_directory_path() / ("databox_cli_misspelt_" + std::to_string(getpid()));
  const std::string config = ExampleRegistryIn(dir).string();
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"run", "usgs_earthquake"},
        std::vector<std::string>{"refresh", "--source", "usgs_earthquake"},
        std::vector<std::string>{"loads", "usgs_earthquake"}}) {
    std::vector<std::string> with_config = args;
    with_config.insert(with_config.end(), {"--config", config});
    auto r = RunDatabox(with_config, {}, dir);
    EXPECT_EQ(r.exit_code, 2) << args.front() << "\n" << r.err;
    EXPECT_TRUE(Contains(r.err,
                         "unknown source 'usgs_earthquake' (did you mean "
                         "'usgs_earthquakes'?)"))
        << args.front() << "\n"
        << r.err;
  }
  fs::remove_all(dir);
}

// `validate` reads the transform's models: a raw table no source loads is named with the model's
// file (it would fail only at transform otherwise); a declared table and `_dlt_*` pass.
TEST(DataboxBinary, ValidateNamesTheModelThatReadsATableNoSourceLoads) {
  const fs::path dir =
      fs::temp_directory_path() / ("databox_cli_validate_models_" + std::to_string(getpid()));
  const std::string config = ExampleRegistryIn(dir).string();
  fs::create_directories(dir / "transform" / "models");
  std::ofstream(dir / "transform" / "models" / "good.sql")
      << "MODEL (name analytics.good);\nSELECT * FROM polaris_aws.raw_usgs_earthquakes.events "
         "JOIN polaris_aws.raw_usgs_earthquakes._dlt_loads USING (x)\n";
  auto valid = RunDatabox({"validate", "--config", config}, {}, dir);
  EXPECT_EQ(valid.exit_code, 0) << valid.out << valid.err;

  std::ofstream(dir / "transform" / "models" / "bad.sql")
      << "MODEL (name analytics.bad);\nSELECT * FROM polaris_aws.raw_usgs_earthquakes.event\n";
  auto invalid = RunDatabox({"validate", "--config", config}, {}, dir);
  EXPECT_EQ(invalid.exit_code, 2) << invalid.out << invalid.err;
  EXPECT_TRUE(Contains(invalid.err, (dir / "transform" / "models" / "bad.sql").string() +
                                        ": model analytics.bad reads raw_usgs_earthquakes.event, "
                                        "which no source of the registry loads (hint: did you "
                                        "mean raw_usgs_earthquakes.events?)\n"))
      << invalid.err;
  EXPECT_FALSE(Contains(invalid.err, "good.sql")) << invalid.err;
  EXPECT_FALSE(Contains(invalid.out, "valid")) << invalid.out;
  fs::remove_all(dir);
}

TEST(DataboxBinary, LoadsListsPackagesAndRemovesOneUnderTheSourceLock) {
  const fs::path dir =
      fs::temp_directory_path() / ("databox_cli_loads_" + std::to_string(getpid()));
  const std::string config = ExampleRegistryIn(dir).string();
  auto none = RunDatabox({"loads", "--config", config}, {}, dir);
  EXPECT_EQ(none.exit_code, 0) << none.err;
  EXPECT_TRUE(Contains(none.out, "no load packages in ")) << none.out;

  ASSERT_EQ(RunDatabox({"--config", config, "run", "usgs"}, {}, dir).exit_code, 0);
  auto json = RunDatabox({"loads", "usgs", "--json", "--config", config}, {}, dir);
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const auto packages = nlohmann::json::parse(json.out);
  ASSERT_EQ(packages.size(), 1u) << json.out;
  const std::string load_id = packages[0]["load_id"];
  EXPECT_EQ(packages[0]["source"], "usgs");
  EXPECT_EQ(packages[0]["state"], "committed");
  EXPECT_EQ(packages[0]["resumable"], false);
  EXPECT_GT(packages[0]["bytes"].get<int64_t>(), 0);
  EXPECT_TRUE(packages[0]["error"].is_null());
  auto table = RunDatabox({"loads", "--config", config}, {}, dir);
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_TRUE(Contains(table.out, "SOURCE  LOAD ID")) << table.out;
  EXPECT_TRUE(Contains(table.out, "usgs    " + load_id + "  committed  ")) << table.out;

  auto unknown = RunDatabox({"loads", "usgss", "--config", config}, {}, dir);
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_TRUE(Contains(unknown.err, "databox loads: unknown source 'usgss' (did you mean 'usgs'?)"))
      << unknown.err;
  {  // While a load of usgs holds its lock (here: this test process), nothing is removed.
    auto lock = databox::load::SourceLock::Acquire(dir / ".databox" / "locks", "usgs");
    ASSERT_TRUE(lock) << lock.error().message;
    auto refused = RunDatabox({"loads", "remove", "usgs", load_id, "--config", config}, {}, dir);
    EXPECT_EQ(refused.exit_code, 1);
    EXPECT_TRUE(Contains(refused.err, "(pid " + std::to_string(getpid()) + " ")) << refused.err;
    EXPECT_TRUE(fs::exists(dir / ".databox" / "loads" / "usgs" / load_id));
  }
  auto removed = RunDatabox({"loads", "remove", "usgs", load_id, "--config", config}, {}, dir);
  EXPECT_EQ(removed.exit_code, 0) << removed.err;
  EXPECT_FALSE(fs::exists(dir / ".databox" / "loads" / "usgs" / load_id));
  auto again = RunDatabox({"loads", "remove", "usgs", load_id, "--config", config}, {}, dir);
  EXPECT_EQ(again.exit_code, 1);
  EXPECT_TRUE(Contains(again.err, "source usgs has no load package " + load_id)) << again.err;
  fs::remove_all(dir);
}

TEST(DataboxBinary, CatalogListDescribeAndQueryFormatsReadALoadedTable) {
  const fs::path dir = fs::temp_directory_path() / ("databox_cli_cat_" + std::to_string(getpid()));
  const std::string config = ExampleRegistryIn(dir).string();
  ASSERT_EQ(RunDatabox({"--config", config, "run", "usgs"}, {}, dir).exit_code, 0);

  auto list = RunDatabox({"catalog", "list", "--config", config}, {}, dir);
  ASSERT_EQ(list.exit_code, 0) << list.err;
  EXPECT_TRUE(Contains(list.out, "TABLE")) << list.out;
  EXPECT_TRUE(Contains(list.out, "\nraw_usgs.sites  ")) << list.out;
  EXPECT_TRUE(Contains(list.out, "\nraw_usgs.daily_values  ")) << list.out;
  const auto tables = nlohmann::json::parse(
      RunDatabox({"catalog", "list", "--json", "--config", config}, {}, dir).out);
  int64_t site_rows = -1;
  for (const auto& t : tables) {
    if (t["table"] == "raw_usgs.sites") site_rows = t["records"].get<int64_t>();
  }
  ASSERT_GT(site_rows, 0);

  auto describe =
      RunDatabox({"catalog", "describe", "raw_usgs.sites", "--config", config}, {}, dir);
  ASSERT_EQ(describe.exit_code, 0) << describe.err;
  EXPECT_TRUE(Contains(describe.out, "rows              " + std::to_string(site_rows) + "\n"))
      << describe.out;
  EXPECT_TRUE(Contains(describe.out, "format version    2\n")) << describe.out;
  EXPECT_TRUE(Contains(describe.out, "\nschema\n")) << describe.out;
  auto near = RunDatabox({"catalog", "describe", "raw_usgs.site", "--config", config}, {}, dir);
  EXPECT_EQ(near.exit_code, 1);
  EXPECT_TRUE(Contains(near.err, "no table raw_usgs.site in catalog")) << near.err;
  EXPECT_TRUE(Contains(near.err, "did you mean raw_usgs.sites?")) << near.err;
  auto ns = RunDatabox({"catalog", "describe", "raw_usgs", "--config", config}, {}, dir);
  EXPECT_EQ(ns.exit_code, 1);
  EXPECT_TRUE(Contains(ns.err, "raw_usgs.daily_values, ")) << ns.err;
  auto inspect = RunDatabox({"inspect", "usgs.sites", "--config", config}, {}, dir);
  EXPECT_EQ(inspect.exit_code, 1);
  EXPECT_TRUE(Contains(inspect.err, "(did you mean raw_usgs.sites?)")) << inspect.err;

  // `inspect` reads the files: their sizes, and the table's identity and layout.
  auto inspected = RunDatabox({"inspect", "raw_usgs.sites", "--json", "--config", config}, {}, dir);
  ASSERT_EQ(inspected.exit_code, 0) << inspected.err;
  const auto table_json = nlohmann::json::parse(inspected.out);
  EXPECT_EQ(table_json["rows"], site_rows);
  EXPECT_EQ(table_json["format_version"], 2);
  EXPECT_EQ(table_json["table_uuid"].get<std::string>().size(), 36u) << table_json["table_uuid"];
  EXPECT_TRUE(table_json["location"].get<std::string>().ends_with("raw_usgs/sites"))
      << table_json["location"];
  int64_t file_bytes = 0;
  for (const auto& f : table_json["files"]) file_bytes += f["bytes"].get<int64_t>();
  EXPECT_GT(file_bytes, 0);
  EXPECT_EQ(table_json["sizes"]["data_bytes"], file_bytes);
  EXPECT_EQ(table_json["sizes"]["data_files"], table_json["files"].size());
  EXPECT_EQ(table_json["sizes"]["delete_bytes"], 0);
  ASSERT_FALSE(table_json["partition_specs"].empty()) << inspected.out;
  EXPECT_TRUE(table_json["partition_specs"][0]["fields"].is_array());
  EXPECT_TRUE(table_json["sort_order"]["fields"].is_array()) << inspected.out;
  EXPECT_TRUE(table_json["properties"].is_object()) << inspected.out;
  const auto& newest = table_json["snapshots"][0];
  EXPECT_TRUE(std::regex_match(newest["time"].get<std::string>(),
                               std::regex(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)")))
      << newest;
  EXPECT_EQ(newest["summary"]["total-records"], std::to_string(site_rows)) << newest;
  EXPECT_TRUE(newest["summary"].contains("added-data-files")) << newest;
  // The table's metadata file (Iceberg's JSON, read here as it is) names the current snapshot;
  // its id decides the form `inspect --json` prints.
  std::string metadata_file = table_json["metadata_location"].get<std::string>();
  if (metadata_file.starts_with("file://")) metadata_file.erase(0, 7);
  std::ifstream metadata_in(metadata_file);
  ASSERT_TRUE(metadata_in) << metadata_file;
  const auto metadata = nlohmann::json::parse(metadata_in);
  ExpectJsonInteger(newest["snapshot_id"], metadata["current-snapshot-id"].get<int64_t>(),
                    "inspect --json: the newest snapshot's id");
  auto inspected_text = RunDatabox({"inspect", "raw_usgs.sites", "--config", config}, {}, dir);
  ASSERT_EQ(inspected_text.exit_code, 0) << inspected_text.err;
  for (const std::string& line : std::vector<std::string>{
           "format version  2\n", "uuid            " + table_json["table_uuid"].get<std::string>(),
           "data files      " + std::to_string(table_json["files"].size()) + " (" +
               std::to_string(file_bytes) + " bytes)\n",
           "delete files    0 (0 bytes, 0 deleted rows)\n", "\nsort order      ",
           "\npartition spec  ", "      data files +"}) {
    EXPECT_TRUE(Contains(inspected_text.out, line)) << line << "\n" << inspected_text.out;
  }

  // The same count through `query`, in each format, two statements at once.
  const std::string count = "SELECT count(*) AS n FROM polaris_aws.raw_usgs.sites";
  auto csv = RunDatabox(
      {"query", count + "; SELECT 'a,b' AS s, NULL AS z", "--format", "csv", "--config", config},
      {}, dir);
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  EXPECT_EQ(csv.out, "n\n" + std::to_string(site_rows) + "\n\ns,z\n\"a,b\",\n");
  auto json = RunDatabox(
      {"query", "SELECT count(*) AS n, 1.50 AS d, [1, 2] AS l FROM polaris_aws.raw_usgs.sites",
       "--format", "json", "--config", config},
      {}, dir);
  ASSERT_EQ(json.exit_code, 0) << json.err;
  EXPECT_EQ(json.out, "{\"n\":" + std::to_string(site_rows) + ",\"d\":1.5,\"l\":[1,2]}\n");
  auto table =
      RunDatabox({"query", "SELECT repeat('x', 100) AS wide, 1 AS one", "--config", config},
                 {"COLUMNS=40"}, dir);
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_TRUE(Contains(table.out, "xxx...  1\n")) << table.out;
  EXPECT_FALSE(Contains(table.out, std::string(40, 'x'))) << table.out;

  auto bad = RunDatabox({"query", "SELECT 1; SELEC 2", "--config", config}, {}, dir);
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_TRUE(Contains(bad.err, "syntax error at or near \"SELEC\"")) << bad.err;
  EXPECT_TRUE(Contains(bad.err, "LINE 1: ")) << bad.err;  // DuckDB's pointer into the SQL
  auto unknown = RunDatabox(
      {"query", "SELECT 1; SELECT nope FROM polaris_aws.raw_usgs.sites", "--config", config}, {},
      dir);
  EXPECT_EQ(unknown.exit_code, 1);
  EXPECT_TRUE(Contains(unknown.err, "statement 2 of 2")) << unknown.err;
  EXPECT_TRUE(Contains(unknown.err, "nope")) << unknown.err;
  // A later statement failing rolls back the earlier ones, whose results are still printed.
  auto rolled = RunDatabox({"query",
                            "SELECT 42 AS answer; CREATE TABLE rolled_back AS SELECT 1 AS x; "
                            "SELECT error('boom')",
                            "--format", "csv", "--config", config},
                           {}, dir);
  EXPECT_EQ(rolled.exit_code, 1);
  EXPECT_TRUE(Contains(rolled.out, "answer\n42\n")) << rolled.out;
  EXPECT_TRUE(Contains(rolled.err, "statement 3 of 3 failed")) << rolled.err;
  EXPECT_TRUE(Contains(rolled.err, "boom")) << rolled.err;
  auto y = RunDatabox({"query",
                       "SELECT count(*) AS n FROM duckdb_tables() WHERE table_name = "
                       "'rolled_back'",
                       "--format", "csv", "--config", config},
                      {}, dir);
  ASSERT_EQ(y.exit_code, 0) << y.err;
  EXPECT_EQ(y.out, "n\n0\n");
  fs::remove_all(dir);
}

TEST(DataboxBinary, CatalogBootstrapRefusesTheEmbeddedCatalog) {
  const std::string example = test_paths::SourceDir() + "/examples/databox/databox.toml";
  auto r = RunDatabox({"--config", example, "catalog", "bootstrap"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(Contains(r.err, "embedded")) << r.err;
}

TEST(DataboxBinary, ValidateAcceptsThePolarisExampleWithItsVariablesSet) {
  const std::string example = test_paths::SourceDir() + "/examples/databox/databox.polaris.toml";
  auto unset = RunDatabox({"--config", example, "validate"});
  EXPECT_EQ(unset.exit_code, 2);
  EXPECT_TRUE(Contains(unset.err, "POLARIS_CREDENTIAL")) << unset.err;
  auto set = RunDatabox(
      {"--config", example, "validate"},
      {"POLARIS_CREDENTIAL=id:not-a-secret", "AWS_ACCESS_KEY_ID=k", "AWS_SECRET_ACCESS_KEY=s"});
  EXPECT_EQ(set.exit_code, 0) << set.err;
}

TEST(DataboxBinary, CatalogBootstrapWithoutPolarisSaysSoAndShowsNoCredential) {
  const std::string example = test_paths::SourceDir() + "/examples/databox/databox.polaris.toml";
  const std::string secret = "polaris-Secret-51d2";
  // Port 1 on loopback: nothing listens there, so no management API answers.
  auto r = RunDatabox(
      {"--config", example, "catalog", "bootstrap", "--management-uri",
       "http://127.0.0.1:1/api/management/v1"},
      {"POLARIS_CREDENTIAL=root:" + secret, "AWS_ACCESS_KEY_ID=k", "AWS_SECRET_ACCESS_KEY=s"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(Contains(r.err, "no Polaris management API at http://127.0.0.1:1/api/management/v1"))
      << r.err;
  EXPECT_FALSE(Contains(r.err + r.out, secret));

  // Without --management-uri it sits beside the catalog API: <root>/api/catalog ->
  // <root>/api/management/v1 (the example's catalog is http://127.0.0.1:8181/api/catalog).
  auto derived = RunDatabox(
      {"--config", example, "catalog", "bootstrap"},
      {"POLARIS_CREDENTIAL=root:" + secret, "AWS_ACCESS_KEY_ID=k", "AWS_SECRET_ACCESS_KEY=s"});
  EXPECT_TRUE(Contains(derived.err, "http://127.0.0.1:8181/api/management/v1")) << derived.err;
  EXPECT_FALSE(Contains(derived.err + derived.out, secret));
}

}  // namespace
