// Test-only: the iceberg module's InMemoryCatalogFixture with a DuckDB connection, for the tests
// that write data files (iceberg/data's test program).
#pragma once

#include <memory>
#include <optional>

#include "duck/connection.h"
#include "duck/database.h"
#include "fileio/local/local_file_io.h"
#include "iceberg/test_util.h"

namespace databox::iceberg {

//! InMemoryCatalogFixture with a local FileIO and an in-memory DuckDB connection (one thread
//! unless a derived fixture sets threads_ before SetUp).
class InMemoryCatalogDuckFixture : public InMemoryCatalogFixture {
 protected:
  void SetUp() override {
    InMemoryCatalogFixture::SetUp();
    io_ = std::make_shared<fileio::LocalFileIO>();
    auto db = duck::Database::Open("", duck::DatabaseOptions{.threads = threads_});
    ASSERT_TRUE(db) << db.error().ToString();
    db_.emplace(std::move(*db));
    auto conn = duck::Connection::Open(*db_);
    ASSERT_TRUE(conn) << conn.error().ToString();
    conn_.emplace(std::move(*conn));
  }

  int threads_ = 1;
  std::shared_ptr<fileio::FileIO> io_;
  std::optional<duck::Database> db_;
  std::optional<duck::Connection> conn_;
};

}  // namespace databox::iceberg
