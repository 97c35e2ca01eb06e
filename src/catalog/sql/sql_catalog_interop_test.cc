// Interop: pyiceberg's SqlCatalog (an independent implementation of the JDBC catalog layout)
// reads what we write and we read what it writes, over one SQLite file and warehouse.
// Needs the project venv (scripts/setup) with pyiceberg; fails, not skips, without it.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "catalog/sql/test_fixture.h"
#include "common/test_paths.h"

namespace databox::catalog::sql {
namespace {

using nlohmann::json;

class SqlCatalogInteropTest : public SqlCatalogFixture {
 protected:
  //! Runs testdata/<script> with pyiceberg against our catalog files; returns its JSON line.
  json RunPython(const std::string& script, const std::string& ns, const std::string& table) {
    return test_util::RunForJsonLine(test_paths::VenvDir() + "/bin/python " +
                                     test_paths::SourceDir() + "/src/catalog/sql/testdata/" +
                                     script + " databox '" + db_path_ + "' '" + warehouse_ + "' " +
                                     ns + " " + table);
  }
};

TEST_F(SqlCatalogInteropTest, PyicebergReadsOurTables) {
  iceberg::TableIdentifier id{{"raw_birds"}, "sightings"};
  iceberg::LoadedTable v0 = CreateBirds("raw_birds", "sightings");
  ASSERT_TRUE(catalog_->CreateNamespace({"raw_empty"}, {}).has_value());
  auto v1 =
      catalog_->CommitTable({.identifier = id,
                             .requirements = {iceberg::AssertTableUuid{v0.metadata.table_uuid}},
                             .updates = {iceberg::SetProperties{{{"written-by", "databox"}}}}});
  ASSERT_TRUE(v1.has_value()) << v1.error().ToString();

  json seen = RunPython("pyiceberg_read.py", "raw_birds", "sightings");
  ASSERT_TRUE(seen.is_object());
  EXPECT_EQ(seen["namespaces"], json({"raw_birds", "raw_empty"}));
  EXPECT_EQ(seen["tables"], json({"raw_birds.sightings"}));
  EXPECT_EQ(seen["metadata_location"], v1->metadata_location);
  EXPECT_EQ(seen["table_uuid"], v0.metadata.table_uuid);
  EXPECT_EQ(seen["fields"],
            json::parse(R"([[1, "id", true, "long"], [2, "name", false, "string"]])"));
  EXPECT_EQ(seen["properties"]["written-by"], "databox");
  EXPECT_EQ(seen["rows"], 0);
}

TEST_F(SqlCatalogInteropTest, WeLoadAndCommitToPyicebergTables) {
  json made = RunPython("pyiceberg_create.py", "py_ns", "wrens");
  ASSERT_TRUE(made.is_object());
  iceberg::TableIdentifier id{{"py_ns"}, "wrens"};

  EXPECT_EQ(catalog_->ListNamespaces({}).value(), (std::vector<iceberg::Namespace>{{"py_ns"}}));
  EXPECT_EQ(catalog_->ListTables({"py_ns"}).value(), std::vector<iceberg::TableIdentifier>{id});
  auto loaded = catalog_->LoadTable(id);
  ASSERT_TRUE(loaded.has_value()) << loaded.error().ToString();
  EXPECT_EQ(loaded->metadata_location, made["metadata_location"]);
  EXPECT_EQ(loaded->metadata.table_uuid, made["table_uuid"]);
  ASSERT_TRUE(loaded->metadata.current_snapshot_id.has_value());
  EXPECT_EQ(*loaded->metadata.current_snapshot_id, made["snapshot_id"].get<int64_t>());
  ASSERT_NE(loaded->metadata.CurrentSchema(), nullptr);
  EXPECT_EQ(loaded->metadata.CurrentSchema()->identifier_field_ids(), std::vector<int32_t>{1});
  EXPECT_EQ(loaded->metadata.properties.at("owner"), "pyiceberg");

  // Our commit on top of pyiceberg's keeps its data visible to pyiceberg.
  auto next = catalog_->CommitTable(
      {.identifier = id,
       .requirements = {iceberg::AssertRefSnapshotId{"main", loaded->metadata.current_snapshot_id}},
       .updates = {iceberg::SetProperties{{{"written-by", "databox"}}}}});
  ASSERT_TRUE(next.has_value()) << next.error().ToString();
  json seen = RunPython("pyiceberg_read.py", "py_ns", "wrens");
  ASSERT_TRUE(seen.is_object());
  EXPECT_EQ(seen["metadata_location"], next->metadata_location);
  EXPECT_EQ(seen["properties"]["written-by"], "databox");
  EXPECT_EQ(seen["rows"], 1);
}

}  // namespace
}  // namespace databox::catalog::sql
