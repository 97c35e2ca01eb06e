// Test-only: a SqlCatalog over a fresh temporary folder (catalog.db + warehouse/).
#pragma once

#include <gtest/gtest.h>
#include <stdio.h>
#include <stdlib.h>

#include <filesystem>
#include <memory>
#include <string>

#include "catalog/sql/sql_catalog.h"
#include "common/test_util.h"
#include "fileio/local/local_file_io.h"

namespace databox::catalog::sql {

class SqlCatalogFixture : public testing::Test {
 protected:
  void SetUp() override {
    std::string templ = (std::filesystem::temp_directory_path() / "sql_catalog_XXXXXX").native();
    ASSERT_NE(::mkdtemp(templ.data()), nullptr);
    dir_ = templ;
    db_path_ = (dir_ / "catalog.db").native();
    warehouse_ = "file://" + (dir_ / "warehouse").native();
    catalog_ = Connect();
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  //! A new catalog instance (its own database connection) over the same files.
  std::unique_ptr<SqlCatalog> Connect(std::shared_ptr<fileio::FileIO> io = nullptr) {
    if (io == nullptr) io = std::make_shared<fileio::LocalFileIO>();
    auto catalog = SqlCatalog::Open(
        {.name = "databox", .uri = "sqlite:///" + db_path_, .warehouse = warehouse_},
        std::move(io));
    EXPECT_TRUE(catalog.has_value()) << catalog.error().ToString();
    return catalog ? std::move(*catalog) : nullptr;
  }

  static iceberg::Schema BirdSchema() {
    iceberg::NestedField id{.id = 1,
                            .name = "id",
                            .required = true,
                            .type = iceberg::Type::Long(),
                            .doc = std::nullopt};
    iceberg::NestedField name{.id = 2,
                              .name = "name",
                              .required = false,
                              .type = iceberg::Type::String(),
                              .doc = std::nullopt};
    return iceberg::Schema(0, {id, name});
  }

  //! Creates namespace `ns` (if needed) and an empty table `ns`.`name`.
  iceberg::LoadedTable CreateBirds(const std::string& ns, const std::string& name) {
    auto exists = catalog_->NamespaceExists({ns});
    if (exists.has_value() && !*exists) {
      EXPECT_TRUE(catalog_->CreateNamespace({ns}, {}).has_value());
    }
    auto created =
        catalog_->CreateTable({{ns}, name}, BirdSchema(), iceberg::PartitionSpec::Unpartitioned(),
                              iceberg::SortOrder::Unsorted(), {}, std::nullopt);
    EXPECT_TRUE(created.has_value()) << created.error().ToString();
    return created ? std::move(*created) : iceberg::LoadedTable{};
  }

  std::filesystem::path dir_;
  std::string db_path_;
  std::string warehouse_;
  std::unique_ptr<SqlCatalog> catalog_;
};

}  // namespace databox::catalog::sql
