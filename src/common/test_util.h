// Test-only helpers shared by every module's tests: running an independent reader (a pyiceberg
// or DuckDB script) and reading the one JSON line it prints; a fixture with a private folder.
#pragma once

#include <gtest/gtest.h>
#include <stdio.h>
#include <unistd.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

namespace databox::test_util {

//! Runs a shell `command` (an independent reader such as a pyiceberg script) that must exit 0
//! and print one JSON line last (warnings may precede it); returns that JSON, or null after a
//! test failure that shows the whole output.
inline nlohmann::json RunForJsonLine(const std::string& command) {
  FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
  EXPECT_NE(pipe, nullptr) << command;
  if (pipe == nullptr) return nlohmann::json();
  std::string output;
  char buffer[4096];
  while (size_t n = std::fread(buffer, 1, sizeof(buffer), pipe)) output.append(buffer, n);
  EXPECT_EQ(::pclose(pipe), 0) << command << "\n" << output;
  const size_t start = output.rfind('\n', output.size() >= 2 ? output.size() - 2 : 0);
  nlohmann::json parsed =
      nlohmann::json::parse(output.substr(start == std::string::npos ? 0 : start + 1), nullptr,
                            /*allow_exceptions=*/false);
  EXPECT_FALSE(parsed.is_discarded()) << command << "\n" << output;
  return parsed.is_discarded() ? nlohmann::json() : parsed;
}

//! A fixture whose tests get an empty folder of their own, `dir_` (under the temp folder, named
//! after the test suite and the test process), removed afterwards.
class TempDirTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("databox_" +
            std::string(::testing::UnitTest::GetInstance()->current_test_suite()->name()) + "_" +
            std::to_string(::getpid()));
    std::filesystem::remove_all(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path dir_;
};

}  // namespace databox::test_util
