// `databox sources` through the built binary: a disabled resource's tables are marked, and a
// table the catalog holds in a source's namespace that the registry no longer declares is
// listed as undeclared (text and JSON).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "cli/example_project_test_support.h"

namespace {

using databox::cli::testing::Contains;
using databox::cli::testing::ExampleProjectTest;
using databox::cli::testing::RunResult;

using SourcesBinary = ExampleProjectTest;

TEST_F(SourcesBinary, MarksDisabledResourcesAndListsTablesTheRegistryNoLongerDeclares) {
  WriteRegistry();
  RunResult before = Databox({"sources"});
  ASSERT_EQ(before.exit_code, 0) << before.err;
  EXPECT_TRUE(Contains(before.out, "taxonomy (disabled)")) << before.out;
  EXPECT_FALSE(Contains(before.out, "(undeclared)")) << before.out;

  RunResult loaded = Databox({"run", "noaa"});
  ASSERT_EQ(loaded.exit_code, 0) << loaded.out << loaded.err;
  // The registry renames the resource: raw_noaa.datasets stays in the catalog, undeclared.
  WriteRegistry("name = \"datasets\"", "name = \"dataset_info\"");

  RunResult after = Databox({"sources"});
  ASSERT_EQ(after.exit_code, 0) << after.err;
  EXPECT_TRUE(Contains(after.out, "dataset_info, datasets (undeclared)")) << after.out;
  RunResult json = Databox({"sources", "--json"});
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
