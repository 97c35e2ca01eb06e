#include "fileio/leftovers.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>

#include "fileio/leftovers_test_support.h"

namespace databox::fileio {
namespace {

namespace fs = std::filesystem;

TEST(LeftoversTest, PidOfLeftoverReadsOnlyAWholePidAfterThePrefix) {
  EXPECT_EQ(PidOfLeftover(".stage-123-abc", ".stage-"), 123);
  EXPECT_EQ(PidOfLeftover("v.duckdb.tmp-77", "v.duckdb.tmp-"), 77);
  EXPECT_EQ(PidOfLeftover("v.duckdb.tmp-77.wal", "v.duckdb.tmp-"), 77);
  EXPECT_EQ(PidOfLeftover("v.duckdb.tmp-77x", "v.duckdb.tmp-"), 0);
  EXPECT_EQ(PidOfLeftover(".stage-abc", ".stage-"), 0);
  EXPECT_EQ(PidOfLeftover(".stage--5", ".stage-"), 0);
  EXPECT_EQ(PidOfLeftover(".stage-0", ".stage-"), 0);
  EXPECT_EQ(PidOfLeftover("other-123", ".stage-"), 0);
}

TEST(LeftoversTest, RemovesWhatDeadProcessesLeftAndNothingElse) {
  char pattern[] = "/tmp/leftovers_test_XXXXXX";
  const fs::path dir = mkdtemp(pattern);
  const std::string dead = std::to_string(testing::DeadPid());
  const std::string live = std::to_string(getpid());
  fs::create_directories(dir / (".stage-" + dead + "-a") / "sub");
  std::ofstream(dir / (".stage-" + dead + "-a") / "sub" / "f") << "x";
  std::ofstream(dir / (".stage-" + dead + ".wal")) << "x";
  fs::create_directories(dir / (".stage-" + live + "-b"));
  std::ofstream(dir / ".stage-notapid") << "x";
  std::ofstream(dir / ("other-" + dead)) << "x";

  EXPECT_EQ(RemoveLeftoversOfDeadProcesses(dir, ".stage-"), 2);
  EXPECT_FALSE(fs::exists(dir / (".stage-" + dead + "-a")));
  EXPECT_FALSE(fs::exists(dir / (".stage-" + dead + ".wal")));
  EXPECT_TRUE(fs::exists(dir / (".stage-" + live + "-b")));
  EXPECT_TRUE(fs::exists(dir / ".stage-notapid"));
  EXPECT_TRUE(fs::exists(dir / ("other-" + dead)));
  EXPECT_EQ(RemoveLeftoversOfDeadProcesses(dir / "missing", ".stage-"), 0);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace databox::fileio
