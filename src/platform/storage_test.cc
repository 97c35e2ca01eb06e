// OpenStorage for an s3:// warehouse whose REST catalog vends credentials: no static keys are
// needed, each table's files are signed with what the catalog vended for it, and DuckDB gets a
// secret scoped to that table's location (read back from DuckDB's own duckdb_secrets()).
#include "platform/storage.h"

#include <gtest/gtest.h>

#include <cstdlib>

#include "duck/connection.h"
#include "duck/database.h"
#include "load/workspace.h"

namespace databox::platform {
namespace {

class VendedStorageTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* name : {"DATABOX_AWS_ACCESS_KEY_ID", "DATABOX_AWS_SECRET_ACCESS_KEY"}) {
      if (const char* value = std::getenv(name)) saved_.emplace_back(name, value);
      ::unsetenv(name);
    }
    warehouse_.location = "s3://bucket/warehouse";
    warehouse_.is_s3 = true;
    warehouse_.s3.endpoint = "http://127.0.0.1:1";  // never reached: signing fails first
    warehouse_.s3.path_style = true;
  }
  void TearDown() override {
    for (const auto& [name, value] : saved_) ::setenv(name.c_str(), value.c_str(), 1);
  }

  registry::WarehouseSettings warehouse_;
  std::vector<std::pair<std::string, std::string>> saved_;
};

TEST_F(VendedStorageTest, WithoutStaticKeysOnlyAVendingCatalogWorks) {
  auto embedded = OpenStorage(warehouse_, /*catalog_vends_credentials=*/false);
  ASSERT_FALSE(embedded.has_value());
  EXPECT_EQ(embedded.error().kind, ErrorKind::kConfig);

  auto storage = OpenStorage(warehouse_, /*catalog_vends_credentials=*/true);
  ASSERT_TRUE(storage.has_value()) << storage.error().ToString();
  EXPECT_FALSE(storage->warehouse_wide_access);
  ASSERT_NE(storage->table_credentials, nullptr);
  const iceberg::TableIdentifier birds{{"raw"}, "birds"};
  storage->table_credentials->Vended(birds, "s3://bucket/warehouse/raw/birds", {});
  auto unsigned_read = storage->file_io->Read("s3://bucket/warehouse/raw/birds/data/1.parquet");
  ASSERT_FALSE(unsigned_read.has_value());
  EXPECT_EQ(unsigned_read.error().kind, ErrorKind::kConfig);
  EXPECT_NE(unsigned_read.error().message.find("no S3 credentials for table raw.birds"),
            std::string::npos)
      << unsigned_read.error().message;

  catalog::rest::StorageCredential vended;
  vended.prefix = "s3://bucket/warehouse/raw/birds";
  vended.config = {{"s3.access-key-id", "ASIAVENDEDSTORAGE"},
                   {"s3.secret-access-key", "vended-storage-secret"},
                   {"s3.session-token", "vended-storage-token"}};
  storage->table_credentials->Vended(birds, "s3://bucket/warehouse/raw/birds", {vended});

  load::WorkspaceParts parts;
  parts.duckdb_s3 = storage->duckdb_s3;
  registry::Registry registry;
  load::Workspace workspace(registry, std::move(parts));
  auto db = duck::Database::Open("");
  ASSERT_TRUE(db.has_value());
  auto conn = duck::Connection::Open(*db);
  ASSERT_TRUE(conn.has_value());
  // Twice: preparing again (after another table load) replaces the table's secret.
  ASSERT_TRUE(workspace.PrepareDuckDbReads(*conn));
  ASSERT_TRUE(workspace.PrepareDuckDbReads(*conn));
  auto secrets = conn->Query("SELECT scope::VARCHAR, secret_string FROM duckdb_secrets()");
  ASSERT_TRUE(secrets.has_value()) << secrets.error().ToString();
  ASSERT_EQ(secrets->row_count(), 1u) << "no warehouse-wide secret without static keys";
  EXPECT_EQ(secrets->GetString(0, 0).value(), "['s3://bucket/warehouse/raw/birds']");
  const std::string settings = secrets->GetString(1, 0).value();
  EXPECT_NE(settings.find("key_id=ASIAVENDEDSTORAGE"), std::string::npos) << settings;
  EXPECT_EQ(settings.find("vended-storage-secret"), std::string::npos) << settings;
}

}  // namespace
}  // namespace databox::platform
