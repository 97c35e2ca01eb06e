// Test-only: an InMemoryCatalog over a fresh temporary warehouse folder, for the iceberg
// module's tests (no catalog implementation from catalog/ is needed to test the model).
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "common/test_util.h"
#include "fileio/local/local_file_io.h"
#include "iceberg/commit/in_memory_catalog.h"

namespace databox::iceberg {

class InMemoryCatalogFixture : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string templ = (std::filesystem::temp_directory_path() / "iceberg_test_XXXXXX").native();
    ASSERT_NE(::mkdtemp(templ.data()), nullptr);
    dir_ = templ;
    warehouse_ = "file://" + (dir_ / "warehouse").native();
    catalog_ = std::make_unique<InMemoryCatalog>("databox", warehouse_,
                                                 std::make_shared<fileio::LocalFileIO>());
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  static Schema BirdSchema() {
    NestedField id{
        .id = 1, .name = "id", .required = true, .type = Type::Long(), .doc = std::nullopt};
    NestedField name{
        .id = 2, .name = "name", .required = false, .type = Type::String(), .doc = std::nullopt};
    return Schema(0, {id, name});
  }

  //! Creates namespace `ns` (if needed) and an empty table `ns`.`name`.
  LoadedTable CreateBirds(const std::string& ns, const std::string& name) {
    auto exists = catalog_->NamespaceExists({ns});
    if (exists.has_value() && !*exists) {
      EXPECT_TRUE(catalog_->CreateNamespace({ns}, {}).has_value());
    }
    auto created = catalog_->CreateTable({{ns}, name}, BirdSchema(), PartitionSpec::Unpartitioned(),
                                         SortOrder::Unsorted(), {}, std::nullopt);
    EXPECT_TRUE(created.has_value()) << created.error().ToString();
    return created ? std::move(*created) : LoadedTable{};
  }

  std::filesystem::path dir_;
  std::string warehouse_;
  std::unique_ptr<InMemoryCatalog> catalog_;
};

}  // namespace databox::iceberg
