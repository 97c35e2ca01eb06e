// A copy of the example project (examples/databox) in a folder of its own for a test of the
// built binary (test-only header): the transform project copied, the registry written with its
// replay pointing at the shared recordings and no retries, and `databox` run against it.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "cli/binary_test_support.h"
#include "common/test_paths.h"

namespace databox::cli::testing {

inline const fs::path kExampleDir = fs::path(test_paths::SourceDir()) / "examples" / "databox";
inline const fs::path kRecordings = fs::path(test_paths::RecordingsDir());

//! `text` with the first `from` replaced by `to`; a test failure when `from` is not in it.
inline std::string ReplaceOnce(std::string text, const std::string& from, const std::string& to) {
  const auto pos = text.find(from);
  EXPECT_NE(pos, std::string::npos) << "example registry no longer contains: " << from;
  if (pos != std::string::npos) text.replace(pos, from.size(), to);
  return text;
}

class ExampleProjectTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("databox_example_" + std::to_string(getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    fs::copy(kExampleDir / "transform", dir_ / "transform", fs::copy_options::recursive);
  }
  void TearDown() override { fs::remove_all(dir_); }

  //! Writes the example registry (replaying `recordings_`, retries 0) into the folder, with
  //! `from` replaced by `to` when given.
  void WriteRegistry(const std::string& from = "", const std::string& to = "") {
    std::string text = Slurp(kExampleDir / "databox.toml");
    text = ReplaceOnce(text, "replay = \"../../fixtures/recordings\"",
                       "replay = \"" + recordings_.string() + "\"");
    text = ReplaceOnce(text, "retries = 5", "retries = 0");
    if (!from.empty()) text = ReplaceOnce(text, from, to);
    std::ofstream(dir_ / "databox.toml") << text;
  }

  //! `--config <the folder's registry>` followed by `args`.
  std::vector<std::string> Args(const std::vector<std::string>& args) const {
    std::vector<std::string> full = {"--config", (dir_ / "databox.toml").string()};
    full.insert(full.end(), args.begin(), args.end());
    return full;
  }

  //! Runs the built databox in the folder with the project venv.
  RunResult Databox(const std::vector<std::string>& args) const {
    return RunDatabox(Args(args), {"DATABOX_VENV_DIR=" + test_paths::VenvDir()}, dir_);
  }

  fs::path dir_;
  fs::path recordings_ = kRecordings;  //!< the recordings the registry replays
};

}  // namespace databox::cli::testing
