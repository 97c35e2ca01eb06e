// Helpers of the load module's tests: a folder per test and the example registry pointed at it.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>

#include "common/error.h"
#include "common/test_paths.h"
#include "duck/connection.h"
#include "duck/database.h"
#include "iceberg/data/scan_sql.h"
#include "load/workspace.h"
#include "platform/workspace.h"
#include "registry/registry.h"

namespace databox::load::testing {

//! Runs `sql_over_t` with `t` bound to `table`'s live rows; returns the first cell ("" if none).
inline std::string ScalarOver(const iceberg::Table& table, const std::string& sql_over_t) {
  auto read = iceberg::ReadSql(table);
  EXPECT_TRUE(read) << read.error().message;
  if (!read) return "";
  auto db = duck::Database::Open("");
  auto conn = duck::Connection::Open(*db);
  auto rows = conn->Query("WITH t AS (" + *read + ") " + sql_over_t);
  EXPECT_TRUE(rows) << rows.error().message;
  if (!rows || rows->row_count() == 0) return "";
  return rows->GetAsString(0, 0).value_or("");
}

//! <tmp>/<prefix>_<pid>_<test name>, emptied.
inline std::filesystem::path FreshTestDir(const std::string& prefix) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() /
      (prefix + "_" + std::to_string(getpid()) + "_" +
       ::testing::UnitTest::GetInstance()->current_test_info()->name());
  std::filesystem::remove_all(dir);
  return dir;
}

//! The example registry with its state folder, embedded catalog, warehouse and analytics
//! database under `dir`.
inline Result<registry::Registry> ExampleRegistryUnder(const std::filesystem::path& dir) {
  DATABOX_ASSIGN_OR_RETURN(
      registry::Registry registry,
      registry::LoadRegistry(test_paths::SourceDir() + "/examples/databox/databox.toml"));
  auto& project = registry.project;
  project.state_dir = dir;
  project.catalog.uri = (dir / "catalog.sqlite").string();
  project.warehouse.location = (dir / "warehouse").string();
  project.analytics.database = dir / "databox.duckdb";
  return registry;
}

//! A test with the example registry's workspace in FreshTestDir(prefix), removed afterwards
//! (kept when DATABOX_KEEP_TEST_DIR is set).
class ExampleWorkspaceTest : public ::testing::Test {
 protected:
  explicit ExampleWorkspaceTest(std::string prefix) : prefix_(std::move(prefix)) {}
  void SetUp() override {
    dir_ = FreshTestDir(prefix_);
    auto loaded = ExampleRegistryUnder(dir_);
    ASSERT_TRUE(loaded) << loaded.error().message;
    registry_ = std::move(*loaded);
    auto ws = platform::OpenWorkspace(registry_);
    ASSERT_TRUE(ws) << ws.error().message;
    workspace_ = std::move(*ws);
  }
  void TearDown() override {
    if (std::getenv("DATABOX_KEEP_TEST_DIR") == nullptr) std::filesystem::remove_all(dir_);
  }

  std::filesystem::path dir_;
  registry::Registry registry_;
  std::unique_ptr<Workspace> workspace_;

 private:
  std::string prefix_;
};

}  // namespace databox::load::testing
