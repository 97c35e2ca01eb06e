// OpenWorkspace + Workspace::PrepareDuckDbReads: what a DuckDB connection gets to read an s3://
// warehouse. The secret's settings are read back from DuckDB's own duckdb_secrets() (which redacts
// the key), so the expectations do not come from our code. Reading real S3 objects is covered by
// tests/integration/refresh_rest (SeaweedFS).
#include "platform/workspace.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "duck/connection.h"
#include "duck/database.h"

namespace databox::platform {
namespace {

namespace fs = std::filesystem;

class WorkspaceDuckDbTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("databox_workspace_test_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    registry_.project.state_dir = dir_ / "state";
    registry_.project.catalog.uri = (dir_ / "catalog.sqlite").string();
    registry_.project.warehouse.location = (dir_ / "warehouse").string();
  }
  void TearDown() override { fs::remove_all(dir_); }

  void UseS3(const std::string& endpoint) {
    registry_.project.warehouse.location = "s3://bucket/warehouse";
    registry_.project.warehouse.is_s3 = true;
    registry_.project.warehouse.s3.endpoint = endpoint;
    registry_.project.warehouse.s3.region = "eu-west-1";
    registry_.project.warehouse.s3.path_style = true;
    registry_.project.warehouse.s3.access_key_id =
        registry::Secret("TEST_KEY_ID", "AKIDWORKSPACETEST", true);
    registry_.project.warehouse.s3.secret_access_key =
        registry::Secret("TEST_SECRET", kSecretValue, true);
  }

  //! Opens the workspace and a fresh in-memory DuckDB connection prepared by it.
  duck::Connection Prepared() {
    auto ws = OpenWorkspace(registry_);
    EXPECT_TRUE(ws.has_value()) << ws.error().ToString();
    workspace_ = std::move(*ws);
    auto db = duck::Database::Open("");
    EXPECT_TRUE(db.has_value());
    db_.emplace(std::move(*db));
    auto conn = duck::Connection::Open(*db_);
    EXPECT_TRUE(conn.has_value());
    auto prepared = workspace_->PrepareDuckDbReads(*conn);
    EXPECT_TRUE(prepared.has_value()) << prepared.error().ToString();
    return std::move(*conn);
  }

  static constexpr const char* kSecretValue = "wJalrWorkspaceTestSecretValue";
  fs::path dir_;
  registry::Registry registry_;
  std::unique_ptr<load::Workspace> workspace_;
  std::optional<duck::Database> db_;
};

TEST_F(WorkspaceDuckDbTest, LocalWarehouseGetsNoSecret) {
  duck::Connection conn = Prepared();
  auto secrets = conn.Query("SELECT count(*) FROM duckdb_secrets()");
  ASSERT_TRUE(secrets.has_value()) << secrets.error().ToString();
  EXPECT_EQ(secrets->GetInt64(0, 0).value(), 0);
}

TEST_F(WorkspaceDuckDbTest, S3WarehouseGetsATemporaryPathStyleSecretForItsEndpoint) {
  UseS3("http://127.0.0.1:9000/");
  duck::Connection conn = Prepared();
  auto secrets =
      conn.Query("SELECT type, persistent, storage, secret_string FROM duckdb_secrets()");
  ASSERT_TRUE(secrets.has_value()) << secrets.error().ToString();
  ASSERT_EQ(secrets->row_count(), 1u);
  EXPECT_EQ(secrets->GetString(0, 0).value(), "s3");
  EXPECT_FALSE(secrets->GetBool(1, 0).value()) << "the secret must not be persisted";
  EXPECT_EQ(secrets->GetString(2, 0).value(), "memory");
  const std::string settings = secrets->GetString(3, 0).value();
  EXPECT_NE(settings.find("endpoint=127.0.0.1:9000;"), std::string::npos) << settings;
  EXPECT_NE(settings.find("url_style=path"), std::string::npos) << settings;
  EXPECT_NE(settings.find("use_ssl=false"), std::string::npos) << settings;
  EXPECT_NE(settings.find("region=eu-west-1"), std::string::npos) << settings;
  EXPECT_NE(settings.find("key_id=AKIDWORKSPACETEST"), std::string::npos) << settings;
  EXPECT_EQ(settings.find(kSecretValue), std::string::npos) << "DuckDB shows the key redacted";
  // httpfs is loaded: s3:// paths are handed to it (an unreachable endpoint fails as I/O,
  // not as a missing extension).
  auto read = conn.Query("SELECT * FROM read_parquet('s3://bucket/none.parquet')");
  ASSERT_FALSE(read.has_value());
  EXPECT_EQ(read.error().message.find("Missing Extension"), std::string::npos)
      << read.error().message;
}

TEST_F(WorkspaceDuckDbTest, HttpsEndpointKeepsTls) {
  UseS3("https://s3.example.test");
  duck::Connection conn = Prepared();
  auto secrets = conn.Query("SELECT secret_string FROM duckdb_secrets()");
  ASSERT_TRUE(secrets.has_value()) << secrets.error().ToString();
  ASSERT_EQ(secrets->row_count(), 1u);
  const std::string settings = secrets->GetString(0, 0).value();
  EXPECT_NE(settings.find("endpoint=s3.example.test;"), std::string::npos) << settings;
  EXPECT_NE(settings.find("use_ssl=true"), std::string::npos) << settings;
}

}  // namespace
}  // namespace databox::platform
