// [[source]] replay: a source's own choice between the project's recordings, live HTTP and its
// own recordings folder.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "registry/registry.h"

namespace databox::registry {
namespace {

using ::testing::HasSubstr;

std::optional<std::string> NoEnvironment(const std::string&) { return std::nullopt; }

class SourceReplayTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/source_replay_test_XXXXXX";
    dir_ = mkdtemp(pattern);
    std::filesystem::create_directories(dir_ / "recordings");
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  //! A registry with sources a (no replay key), b (`b_replay`) and the project replay `project`.
  std::filesystem::path Write(const std::string& project, const std::string& b_replay) const {
    std::string text = "[project]\nstate_dir = \"state\"\n";
    if (!project.empty()) text += "[project.http]\nreplay = \"" + project + "\"\n";
    for (const std::string name : {"a", "b"}) {
      text += "[[source]]\nname = \"" + name +
              "\"\neligibility = \"routine\"\nbase_url = \"https://example.org\"\n";
      if (name == "b" && !b_replay.empty()) text += "replay = " + b_replay + "\n";
      text += "[source.auth]\ntype = \"query\"\nname = \"key\"\nsecret = \"${" + name +
              "_KEY}\"\n[[source.resource]]\nname = \"" + name +
              "_items\"\nwrite_disposition = \"append\"\n";
    }
    std::ofstream(dir_ / "databox.toml") << text;
    return dir_ / "databox.toml";
  }

  std::filesystem::path dir_;
};

TEST_F(SourceReplayTest, ASourceMayFetchLiveInAReplayingProject) {
  const auto path = Write("recordings", "false");
  // b is live, so its secret is required; a replays and may leave its own unset.
  const ValidationReport report = Validate(path, {.env = NoEnvironment});
  ASSERT_EQ(report.problems.size(), 1u) << report.ToString();
  EXPECT_THAT(report.problems.front().message, HasSubstr("b_KEY"));
  auto registry =
      LoadRegistry(path, {.env = [](const std::string& name) {
                     return name == "b_KEY" ? std::optional<std::string>("bbbb") : std::nullopt;
                   }});
  ASSERT_TRUE(registry.has_value()) << registry.error().message;
  EXPECT_EQ(registry->sources[0].replay_dir, dir_ / "recordings" / "a");
  EXPECT_TRUE(registry->sources[0].replay());
  EXPECT_FALSE(registry->sources[1].replay_dir.has_value());
  EXPECT_FALSE(registry->sources[1].replay());
}

TEST_F(SourceReplayTest, ASourceMayReplayItsOwnFolderInALiveProject) {
  const auto path = Write("", "\"cassettes/b\"");
  auto registry =
      LoadRegistry(path, {.env = [](const std::string& name) {
                     return name == "a_KEY" ? std::optional<std::string>("aaaa") : std::nullopt;
                   }});
  ASSERT_TRUE(registry.has_value()) << registry.error().message;
  EXPECT_FALSE(registry->sources[0].replay());
  EXPECT_EQ(registry->sources[1].replay_dir, dir_ / "cassettes" / "b");
  EXPECT_TRUE(registry->sources[1].replay());
}

TEST_F(SourceReplayTest, ReplayTrueNeedsAProjectReplay) {
  const ValidationReport report = Validate(Write("", "true"), {.env = NoEnvironment});
  EXPECT_THAT(report.ToString(), HasSubstr("'replay = true' needs [project.http] replay"));
}

}  // namespace
}  // namespace databox::registry
