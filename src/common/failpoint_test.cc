#include "common/failpoint.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace databox {
namespace {

TEST(FailpointSpecTest, NameAloneFiresOnFirstHit) {
  auto spec = ParseFailpointSpec("after-manifest-write");
  ASSERT_TRUE(spec) << spec.error().message;
  EXPECT_EQ(spec->name, "after-manifest-write");
  EXPECT_EQ(spec->nth, 1);
}

TEST(FailpointSpecTest, HitCountAfterColon) {
  auto spec = ParseFailpointSpec("after-catalog-swap:3");
  ASSERT_TRUE(spec) << spec.error().message;
  EXPECT_EQ(spec->name, "after-catalog-swap");
  EXPECT_EQ(spec->nth, 3);
}

TEST(FailpointSpecTest, RejectsUnknownNamesAndBadCounts) {
  auto unknown = ParseFailpointSpec("after-manifest");
  ASSERT_FALSE(unknown);
  EXPECT_NE(unknown.error().message.find("known points: after-extract"), std::string::npos)
      << unknown.error().message;
  for (const char* bad : {"after-extract:0", "after-extract:-1", "after-extract:x",
                          "after-extract:2x", "after-extract:"}) {
    EXPECT_FALSE(ParseFailpointSpec(bad)) << bad;
  }
}

// The environment is read once per process, so each case runs in a freshly started child
// (death tests in "threadsafe" style re-execute the test program).
class FailpointProcessTest : public ::testing::Test {
 protected:
  void SetUp() override { GTEST_FLAG_SET(death_test_style, "threadsafe"); }
};

TEST_F(FailpointProcessTest, ArmedPointRaisesSigkillOnItsNthHitOnly) {
  EXPECT_EXIT(
      {
        setenv("DATABOX_FAILPOINT", "before-catalog-swap:3", 1);
        Failpoint("after-extract");        // another point: ignored
        Failpoint("before-catalog-swap");  // hit 1
        Failpoint("before-catalog-swap");  // hit 2
        fprintf(stderr, "survived two hits\n");
        Failpoint("before-catalog-swap");  // hit 3: killed here
        std::exit(0);
      },
      ::testing::KilledBySignal(SIGKILL), "survived two hits");
}

TEST_F(FailpointProcessTest, UnarmedOrMisspelledPointNeverFires) {
  EXPECT_EXIT(
      {
        setenv("DATABOX_FAILPOINT", "after-manifest", 1);  // unknown: warned about, ignored
        for (std::string_view name : kFailpointNames) Failpoint(name);
        std::exit(7);
      },
      ::testing::ExitedWithCode(7), "DATABOX_FAILPOINT ignored: unknown failpoint");
}

TEST_F(FailpointProcessTest, TraceListsEveryPointReached) {
  // Not named by pid: the death test's child re-executes this body in another process.
  const std::filesystem::path trace =
      std::filesystem::temp_directory_path() / "databox_failpoint_trace_test.txt";
  std::filesystem::remove(trace);
  EXPECT_EXIT(
      {
        setenv("DATABOX_FAILPOINT_TRACE", trace.c_str(), 1);
        Failpoint("after-extract");
        Failpoint("after-data-files");
        Failpoint("after-data-files");
        std::exit(0);
      },
      ::testing::ExitedWithCode(0), "");
  std::ifstream in(trace);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_EQ(text.str(), "after-extract\nafter-data-files\nafter-data-files\n");
  std::filesystem::remove(trace);
}

}  // namespace
}  // namespace databox
