// Installs the current build with `cmake --install` into a temporary prefix and uses the
// installed databox as a newcomer would, from a folder outside the repository. Needs the project
// venv (DATABOX_VENV_DIR, scripts/setup) for the SQLMesh step; fails, not skips, without it.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "cli/binary_test_support.h"
#include "common/test_paths.h"

namespace {

namespace fs = std::filesystem;
namespace test_paths = databox::test_paths;

using databox::cli::testing::Contains;
using databox::cli::testing::RunProgram;
using databox::cli::testing::TempFolder;

// Features in the USGS response that `databox init` embeds (fixtures/recordings).
constexpr int kRecordedEvents = 2;

TEST(Install, InstalledBinaryIsRelocatableAndStartsAProject) {
  TempFolder temp("databox_install");
  ASSERT_FALSE(temp.path().empty());
  const fs::path prefix = temp.path() / "prefix";
  auto installed = RunProgram(DATABOX_CMAKE_COMMAND,
                              {"--install", test_paths::BuildDir(), "--prefix", prefix.string()});
  ASSERT_EQ(installed.exit_code, 0) << installed.out << installed.err;
  const std::string databox = (prefix / "bin" / "databox").string();
  ASSERT_TRUE(fs::is_regular_file(databox)) << installed.out;
  ASSERT_TRUE(fs::is_regular_file(prefix / "lib" / "libduckdb.so")) << installed.out;

  // No path of the build machine stays in the binary's dynamic section.
  auto dynamic = RunProgram(DATABOX_READELF, {"-d", databox});
  ASSERT_EQ(dynamic.exit_code, 0) << dynamic.err;
  for (const std::string& build_path :
       {test_paths::BuildDir(), test_paths::SourceDir(), test_paths::DepsDir()}) {
    EXPECT_FALSE(Contains(dynamic.out, build_path)) << build_path << "\n" << dynamic.out;
  }
  EXPECT_TRUE(Contains(dynamic.out, "[$ORIGIN/../lib]")) << dynamic.out;
  // The loader resolves DuckDB to the installed copy.
  auto libraries = RunProgram(DATABOX_LDD, {databox});
  const std::string arrow = "libduckdb.so => ";
  const size_t from = libraries.out.find(arrow);
  ASSERT_NE(from, std::string::npos) << libraries.out;
  const size_t start = from + arrow.size();
  const fs::path loaded = libraries.out.substr(start, libraries.out.find(" (", start) - start);
  std::error_code ec;
  EXPECT_TRUE(fs::equivalent(loaded, prefix / "lib" / "libduckdb.so", ec)) << loaded << "\n"
                                                                           << libraries.out;

  // A newcomer's folder, outside the repository.
  const fs::path work = temp.path() / "work";
  fs::create_directories(work);
  auto init = RunProgram(databox, {"init", "myproject"}, {}, work);
  ASSERT_EQ(init.exit_code, 0) << init.out << init.err;
  const fs::path project = work / "myproject";
  auto validate = RunProgram(databox, {"validate"}, {}, project);
  EXPECT_EQ(validate.exit_code, 0) << validate.out << validate.err;
  auto run = RunProgram(databox, {"run", "usgs_earthquakes"}, {}, project);
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_TRUE(Contains(
      run.out, "raw_usgs_earthquakes.events  merge  rows=" + std::to_string(kRecordedEvents)))
      << run.out;

  // The quickstart's modelling step: SQLMesh from the project venv.
  auto refresh =
      RunProgram(databox, {"refresh"}, {"DATABOX_VENV_DIR=" + test_paths::VenvDir()}, project);
  ASSERT_EQ(refresh.exit_code, 0) << refresh.out << refresh.err;
  auto query = RunProgram(
      databox, {"query", "--format", "csv", "SELECT count(*) AS n FROM analytics.fct_earthquakes"},
      {}, project);
  EXPECT_EQ(query.exit_code, 0) << query.out << query.err;
  // CSV lines end in \n (the header, then the one row).
  EXPECT_EQ(query.out, "n\n" + std::to_string(kRecordedEvents) + "\n");
}

}  // namespace
