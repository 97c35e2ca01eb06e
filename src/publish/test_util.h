// Test-only helpers of the publish module's tests: a local folder per test and a LocalFileIO.
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <memory>
#include <string>

#include "fileio/local/local_file_io.h"

namespace databox::publish::testing {

class PublishTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (std::filesystem::temp_directory_path() / "publish_test_XXXXXX").string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
  }
  void TearDown() override {
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
  }
  //! An absolute path under the test's folder.
  std::string Path(const std::string& relative) const { return (dir_ / relative).string(); }

  std::filesystem::path dir_;
  std::shared_ptr<fileio::LocalFileIO> io_ = std::make_shared<fileio::LocalFileIO>();
};

}  // namespace databox::publish::testing
