#include "refresh/sqlmesh_install.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include "common/test_paths.h"

namespace databox::refresh {
namespace {

using ::testing::HasSubstr;

std::string Pin(const std::string& requirements, const std::string& package) {
  std::smatch match;
  // The package may carry extras: sqlmesh[trino]==0.236.4.
  const std::regex line("(^|\n)" + package + "(\\[[a-z,]+\\])?==([^\n]+)");
  return std::regex_search(requirements, match, line) ? match[3].str() : "";
}

// The install hint names the versions scripts/setup installs, so a user outside the repository
// gets the same SQLMesh and DuckDB the project is tested with.
TEST(SqlMeshInstall, NamesTheVersionsTheProjectPins) {
  std::ifstream in(test_paths::SourceDir() + "/scripts/requirements.txt");
  ASSERT_TRUE(in) << "cannot read scripts/requirements.txt";
  std::stringstream text;
  text << in.rdbuf();
  const std::string sqlmesh = Pin(text.str(), "sqlmesh");
  const std::string duckdb = Pin(text.str(), "duckdb");
  ASSERT_FALSE(sqlmesh.empty());
  ASSERT_FALSE(duckdb.empty());
  const std::string pins = "pip install 'sqlmesh==" + sqlmesh + "' 'duckdb==" + duckdb + "'";
  EXPECT_EQ(kSqlMeshPipInstall, pins);
  EXPECT_THAT(kSqlMeshInstallHint, HasSubstr(pins));
}

}  // namespace
}  // namespace databox::refresh
