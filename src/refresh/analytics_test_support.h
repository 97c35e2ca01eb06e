// Test-only (header-only): a project in a temporary folder with a small registry, its
// workspace, and helpers that create raw Iceberg tables with real Parquet data files.
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "duck/connection.h"
#include "duck/database.h"
#include "iceberg/commit/table_operations.h"
#include "iceberg/data/data_files.h"
#include "iceberg/table.h"
#include "load/workspace.h"
#include "platform/workspace.h"
#include "refresh/analytics.h"
#include "registry/registry.h"

namespace databox::refresh::testing {

//! Two routine sources (alpha: table t keyed by id; beta: events) and one explicit-only file
//! source (gamma: traits keyed by code, with a hinted double column). Alias "lake".
inline constexpr const char* kTestRegistry = R"toml(
[project]
name = "refresh-test"

[project.analytics]
catalog_alias = "lake"

[[source]]
name = "alpha"
eligibility = "routine"
kind = "rest_json"
base_url = "https://example.org"

[[source.resource]]
name = "t"
path = "/t"
primary_key = ["id"]
write_disposition = "merge"

[[source]]
name = "beta"
eligibility = "routine"
kind = "rest_json"
base_url = "https://example.org"

[[source.resource]]
name = "events"
path = "/events"
write_disposition = "append"

[[source]]
name = "gamma"
eligibility = "explicit"
kind = "file"

[source.file]
url = "https://example.org/traits.xlsx"

[[source.resource]]
name = "traits"
format = "xlsx"
primary_key = ["code"]
write_disposition = "replace"
columns = { mass = "double" }
)toml";

inline iceberg::NestedField Field(int32_t id, std::string name, iceberg::Type type) {
  return iceberg::NestedField{
      .id = id, .name = std::move(name), .required = false, .type = type, .doc = std::nullopt};
}

class ProjectFixture : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string templ = (std::filesystem::temp_directory_path() / "refresh_XXXXXX").native();
    ASSERT_NE(::mkdtemp(templ.data()), nullptr);
    dir_ = templ;
    UseRegistry(RegistryText());
    if (HasFatalFailure()) return;
    auto db = duck::Database::Open("", {.threads = 1});
    ASSERT_TRUE(db.has_value());
    db_ = std::make_unique<duck::Database>(std::move(*db));
    auto conn = duck::Connection::Open(*db_);
    ASSERT_TRUE(conn.has_value());
    conn_ = std::make_unique<duck::Connection>(std::move(*conn));
  }
  void TearDown() override {
    conn_.reset();
    db_.reset();
    workspace_.reset();
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }

  virtual std::string RegistryText() const { return kTestRegistry; }

  //! Writes `text` as the project's databox.toml and opens its registry and workspace (closing
  //! the previous workspace first; the folder and its state stay).
  void UseRegistry(const std::string& text) {
    workspace_.reset();
    std::ofstream(dir_ / "databox.toml") << text;
    auto registry = registry::LoadRegistry(dir_ / "databox.toml");
    ASSERT_TRUE(registry.has_value()) << registry.error().ToString();
    registry_ = std::make_unique<registry::Registry>(std::move(*registry));
    auto workspace = platform::OpenWorkspace(*registry_);
    ASSERT_TRUE(workspace.has_value()) << workspace.error().ToString();
    workspace_ = std::move(*workspace);
  }

  //! Rows of `sql` run on a fresh OpenAnalytics connection, one "a|b|c" string per row.
  std::vector<std::string> AnalyticsRows(const std::string& sql) {
    auto analytics = OpenAnalytics(*workspace_);
    EXPECT_TRUE(analytics.has_value()) << analytics.error().ToString();
    if (!analytics) return {};
    auto result = analytics->connection.Query(sql);
    EXPECT_TRUE(result.has_value()) << result.error().ToString();
    if (!result) return {};
    std::vector<std::string> rows;
    for (auto row : *result) {
      std::string text;
      for (uint64_t c = 0; c < result->column_count(); ++c) {
        text += (c ? "|" : "") + (row.IsNull(c) ? std::string("NULL") : *row.GetAsString(c));
      }
      rows.push_back(text);
    }
    return rows;
  }

  //! Creates raw_<source>.<table> with `schema` (and the namespace when missing).
  void CreateTable(const std::string& source, const std::string& table,
                   const iceberg::Schema& schema) {
    iceberg::Catalog& catalog = workspace_->catalog();
    const iceberg::Namespace ns{"raw_" + source};
    auto exists = catalog.NamespaceExists(ns);
    ASSERT_TRUE(exists.has_value());
    if (!*exists) {
      ASSERT_TRUE(catalog.CreateNamespace(ns, {}).has_value());
    }
    auto created = catalog.CreateTable({ns, table}, schema, iceberg::PartitionSpec::Unpartitioned(),
                                       iceberg::SortOrder::Unsorted(), {}, std::nullopt);
    ASSERT_TRUE(created.has_value()) << created.error().ToString();
  }

  //! Appends the rows of `select_sql` (written as Parquet by DuckDB) to raw_<source>.<table>.
  void Append(const std::string& source, const std::string& table, const std::string& select_sql) {
    auto loaded = iceberg::Table::Load(workspace_->catalog(), workspace_->file_io(),
                                       {{"raw_" + source}, table});
    ASSERT_TRUE(loaded.has_value()) << loaded.error().ToString();
    auto files =
        iceberg::WriteDataFiles(*conn_, *workspace_->file_io(), loaded->metadata(), select_sql);
    ASSERT_TRUE(files.has_value()) << files.error().ToString();
    auto append = loaded->NewAppend();
    append->AddFiles(std::move(*files));
    auto committed = append->Commit(workspace_->catalog());
    ASSERT_TRUE(committed.has_value()) << committed.error().ToString();
  }

  //! Evolves raw_<source>.<table> to the union of its schema and `incoming`.
  void Evolve(const std::string& source, const std::string& table, iceberg::Schema incoming) {
    iceberg::SchemaUpdate update({{"raw_" + source}, table}, std::move(incoming));
    auto committed = iceberg::CommitChange(workspace_->catalog(), *workspace_->file_io(), update);
    ASSERT_TRUE(committed.has_value()) << committed.error().ToString();
  }

  //! Creates raw_<source>._dlt_load_status and adds one row per VALUES tuple
  //! (load_id, schema_name, status, inserted_at, rows_loaded).
  void AddLoadStatus(const std::string& source, const std::string& values) {
    const std::string table = "_dlt_load_status";
    auto exists = workspace_->catalog().TableExists({{"raw_" + source}, table});
    ASSERT_TRUE(exists.has_value());
    if (!*exists) {
      CreateTable(source, table,
                  iceberg::Schema(0, {Field(1, "load_id", iceberg::Type::String()),
                                      Field(2, "schema_name", iceberg::Type::String()),
                                      Field(3, "status", iceberg::Type::Long()),
                                      Field(4, "inserted_at", iceberg::Type::Timestamp()),
                                      Field(5, "rows_loaded", iceberg::Type::Long())}));
    }
    Append(source, table,
           "SELECT * FROM (VALUES " + values +
               ") v(load_id, schema_name, status, inserted_at, rows_loaded)");
  }

  std::filesystem::path dir_;
  std::unique_ptr<registry::Registry> registry_;
  std::unique_ptr<load::Workspace> workspace_;
  std::unique_ptr<duck::Database> db_;      //!< in-memory, for writing data files
  std::unique_ptr<duck::Connection> conn_;  //!< on db_
};

}  // namespace databox::refresh::testing
