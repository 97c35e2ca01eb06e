// `databox init` run as a user would: a new project in a fresh folder validates and loads its
// example source offline; a non-empty folder is refused and no existing file is overwritten.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "cli/binary_test_support.h"
#include "common/test_paths.h"

namespace {

namespace fs = std::filesystem;
namespace test_paths = databox::test_paths;

using databox::cli::testing::Contains;
using databox::cli::testing::RunDatabox;
using databox::cli::testing::Slurp;
using databox::cli::testing::TempFolder;

// Features in the USGS response recorded under fixtures/recordings (the one init embeds).
constexpr int kRecordedEvents = 2;

TEST(InitBinary, NewProjectValidatesAndLoadsItsSourceOffline) {
  TempFolder temp("databox_init");
  ASSERT_FALSE(temp.path().empty());
  auto init = RunDatabox({"init", "myproject"}, {}, temp.path());
  ASSERT_EQ(init.exit_code, 0) << init.out << init.err;
  const fs::path project = temp.path() / "myproject";
  for (const char* file : {"databox.toml", ".env.example", ".gitignore", "transform/config.yaml",
                           "transform/models/analytics/fct_earthquakes.sql",
                           "transform/models/analytics/platform_health.sql"}) {
    EXPECT_TRUE(fs::is_regular_file(project / file)) << file << "\n" << init.out;
  }
  EXPECT_TRUE(Contains(Slurp(project / ".gitignore"), ".databox/"));
  EXPECT_TRUE(Contains(Slurp(project / ".gitignore"), ".venv/"));  // SQLMesh's virtualenv
  EXPECT_TRUE(Contains(init.out, "new project in myproject")) << init.out;
  // The platform_health model is the example project's, unchanged.
  EXPECT_EQ(Slurp(project / "transform/models/analytics/platform_health.sql"),
            Slurp(fs::path(test_paths::SourceDir()) /
                  "examples/databox/transform/models/analytics/platform_health.sql"));
  // The embedded recording is a real response: the same as the shared one.
  EXPECT_EQ(Slurp(project / "recordings/usgs_earthquakes/events.yaml"),
            Slurp(fs::path(test_paths::RecordingsDir()) / "usgs_earthquakes/"
                                                          "test_resources__test_events_resource_"
                                                          "returns_feed_rows.yaml"));

  auto validate = RunDatabox({"validate"}, {}, project);
  EXPECT_EQ(validate.exit_code, 0) << validate.out << validate.err;
  EXPECT_TRUE(Contains(validate.out, "valid")) << validate.out;

  auto run = RunDatabox({"run", "usgs_earthquakes"}, {}, project);
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_TRUE(Contains(
      run.out, "raw_usgs_earthquakes.events  merge  rows=" + std::to_string(kRecordedEvents)))
      << run.out;
  auto query = RunDatabox({"query", "--format", "csv",
                           "SELECT count(*) AS n FROM polaris_aws.raw_usgs_earthquakes.events"},
                          {}, project);
  EXPECT_EQ(query.exit_code, 0) << query.out << query.err;
  // CSV lines end in \n (the header, then the one row).
  EXPECT_EQ(query.out, "n\n" + std::to_string(kRecordedEvents) + "\n");
}

TEST(InitBinary, RefusesANonEmptyFolderAndNeverOverwritesAFile) {
  TempFolder temp("databox_init");
  ASSERT_FALSE(temp.path().empty());
  const fs::path project = temp.path() / "mine";
  fs::create_directories(project);
  std::ofstream(project / "databox.toml") << "# my own registry\n";

  auto refused = RunDatabox({"init", project.string()});
  EXPECT_EQ(refused.exit_code, 2) << refused.out << refused.err;
  EXPECT_TRUE(Contains(refused.err, "is not empty")) << refused.err;
  EXPECT_TRUE(Contains(refused.err, "--force")) << refused.err;
  EXPECT_FALSE(fs::exists(project / "transform"));

  auto forced = RunDatabox({"init", "--force", project.string()});
  EXPECT_EQ(forced.exit_code, 0) << forced.out << forced.err;
  EXPECT_EQ(Slurp(project / "databox.toml"), "# my own registry\n");
  EXPECT_TRUE(Contains(forced.out, "kept")) << forced.out;
  EXPECT_TRUE(fs::is_regular_file(project / "transform/config.yaml"));
  // Not a new project: it says so, and what it added.
  EXPECT_FALSE(Contains(forced.out, "new project")) << forced.out;
  EXPECT_TRUE(Contains(forced.out, "re-initialised " + project.string() +
                                       "; no file was overwritten\nwrote the missing:\n"))
      << forced.out;
  EXPECT_TRUE(Contains(forced.out, "  transform/config.yaml\n")) << forced.out;
  auto again = RunDatabox({"init", "--force", project.string()});
  EXPECT_EQ(again.exit_code, 0) << again.out << again.err;
  EXPECT_TRUE(Contains(again.out, "no file was missing")) << again.out;
}

TEST(InitBinary, RefusesAFileInPlaceOfTheFolder) {
  TempFolder temp("databox_init");
  ASSERT_FALSE(temp.path().empty());
  std::ofstream(temp.path() / "taken") << "x";
  auto r = RunDatabox({"init", "--force", (temp.path() / "taken").string()});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_TRUE(Contains(r.err, "not a folder")) << r.err;
}

}  // namespace
