// Helpers for the duck module's tests only (header-only; not part of the library API).
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "duck/connection.h"
#include "duck/database.h"

namespace databox::duck::testing {

//! A fresh directory under the system temp dir, removed with its contents on destruction.
class TempDir {
 public:
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "duck_test_XXXXXX").string();
    if (mkdtemp(pattern.data()) != nullptr) path_ = pattern;
  }
  ~TempDir() {
    std::error_code ec;
    if (!path_.empty()) std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  std::string File(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

//! An in-memory database with one connection, for tests that only need SQL.
struct MemoryDb {
  Database db;
  Connection conn;
};

inline MemoryDb OpenMemoryDb() {
  auto db = Database::Open("", DatabaseOptions{.threads = 1});
  EXPECT_TRUE(db.has_value()) << (db ? "" : db.error().ToString());
  auto conn = Connection::Open(*db);
  EXPECT_TRUE(conn.has_value()) << (conn ? "" : conn.error().ToString());
  return MemoryDb{std::move(*db), std::move(*conn)};
}

}  // namespace databox::duck::testing
