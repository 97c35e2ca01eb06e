// `databox sources` through the built binary: a disabled resource's tables are marked, and a
// table the catalog holds in a source's namespace that the registry no longer declares is
// listed as undeclared (text and JSON).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "cli/binary_test_support.h"

namespace {

namespace fs = std::filesystem;
using databox::cli::testing::Contains;
using databox::cli::testing::kExampleReplayLine;
using databox::cli::testing::ReplaceOnce;
using databox::cli::testing::RunDatabox;
using databox::cli::testing::RunResult;
using databox::cli::testing::Slurp;
using databox::cli::testing::TempFolder;

const fs::path kExampleDir = fs::path(DATABOX_SOURCE_DIR) / "examples" / "databox";
const fs::path kRecordings = fs::path(DATABOX_SHARED_DIR) / "fixtures" / "recordings";

TEST(SourcesBinary, MarksDisabledResourcesAndListsTablesTheRegistryNoLongerDeclares) {
  TempFolder dir("databox_sources");
  const fs::path config = dir.path() / "databox.toml";
  std::string text = Slurp(kExampleDir / "databox.toml");
  ASSERT_TRUE(ReplaceOnce(text, kExampleReplayLine, "replay = \"" + kRecordings.string() + "\""));
  std::ofstream(config) << text;

  RunResult before = RunDatabox({"--config", config.string(), "sources"}, {}, dir.path());
  ASSERT_EQ(before.exit_code, 0) << before.err;
  EXPECT_TRUE(Contains(before.out, "taxonomy (disabled)")) << before.out;
  EXPECT_FALSE(Contains(before.out, "(undeclared)")) << before.out;

  RunResult loaded = RunDatabox({"--config", config.string(), "run", "noaa"}, {}, dir.path());
  ASSERT_EQ(loaded.exit_code, 0) << loaded.out << loaded.err;
  // The registry renames the resource: raw_noaa.datasets stays in the catalog, undeclared.
  ASSERT_TRUE(ReplaceOnce(text, "name = \"datasets\"", "name = \"dataset_info\""));
  std::ofstream(config) << text;

  RunResult after = RunDatabox({"--config", config.string(), "sources"}, {}, dir.path());
  ASSERT_EQ(after.exit_code, 0) << after.err;
  EXPECT_TRUE(Contains(after.out, "dataset_info, datasets (undeclared)")) << after.out;
  RunResult json = RunDatabox({"--config", config.string(), "sources", "--json"}, {}, dir.path());
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const auto sources = nlohmann::json::parse(json.out);
  bool saw_noaa = false;
  for (const auto& source : sources) {
    if (source["name"] != "noaa") continue;
    saw_noaa = true;
    EXPECT_EQ(source["undeclared_tables"], nlohmann::json({"datasets"})) << source.dump();
  }
  EXPECT_TRUE(saw_noaa) << json.out;
}

}  // namespace
