#include "duck/extensions.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "duck/test_support.h"
#include "duck/version.h"

namespace databox::duck {
namespace {

using ::testing::HasSubstr;

TEST(ExtensionsTest, MissingExtensionSaysWhereAndWhatToDo) {
  testing::TempDir empty;
  DatabaseOptions options;
  options.extension_directory = empty.path().string();
  auto db = Database::Open("", options);
  ASSERT_TRUE(db.has_value());
  auto conn = Connection::Open(*db);
  ASSERT_TRUE(conn.has_value());
  auto loaded = LoadExtension(*conn, "iceberg");
  ASSERT_FALSE(loaded.has_value());
  EXPECT_EQ(loaded.error().kind, ErrorKind::kNotFound);
  EXPECT_THAT(loaded.error().message,
              HasSubstr("extension iceberg not found in " + empty.path().string()));
  EXPECT_THAT(loaded.error().message, HasSubstr("run scripts/setup"));
}

TEST(ExtensionsTest, RejectsNamesThatAreNotPlain) {
  auto mem = testing::OpenMemoryDb();
  auto loaded = LoadExtension(mem.conn, "../../etc/passwd");
  ASSERT_FALSE(loaded.has_value());
  EXPECT_EQ(loaded.error().kind, ErrorKind::kConfig);
}

TEST(ExtensionsTest, PathFollowsDuckDbLayout) {
  auto mem = testing::OpenMemoryDb();
  auto path = ExtensionPath(mem.conn, "httpfs");
  ASSERT_TRUE(path.has_value()) << path.error().ToString();
  EXPECT_EQ(*path, DefaultExtensionDirectory() + "/" + LibraryVersion() +
                       "/linux_amd64/httpfs.duckdb_extension");
}

// Needs the binaries scripts/setup installs into .deps/duckdb/extensions (a setup requirement
// of the project, so their absence is a failure here, not a skip).
TEST(ExtensionsTest, LoadsIcebergFromTheProjectDirectory) {
  auto mem = testing::OpenMemoryDb();
  auto loaded = LoadExtension(mem.conn, "iceberg");
  ASSERT_TRUE(loaded.has_value()) << loaded.error().ToString();
  auto r = mem.conn.Query(
      "SELECT loaded, install_path FROM duckdb_extensions() WHERE extension_name = 'iceberg'");
  ASSERT_TRUE(r.has_value()) << r.error().ToString();
  ASSERT_EQ(r->row_count(), 1u);
  EXPECT_TRUE(r->GetBool(0, 0).value());
  // A function only the iceberg extension provides now binds.
  auto fn = mem.conn.Query(
      "SELECT count(*) FROM duckdb_functions() WHERE function_name = 'iceberg_scan'");
  ASSERT_TRUE(fn.has_value());
  EXPECT_GE(fn->GetInt64(0, 0).value(), 1);
}

TEST(ExtensionsTest, NoAutoloadingWithoutLoad) {
  auto mem = testing::OpenMemoryDb();
  // With autoloading on, DuckDB would load iceberg here by itself; with it off, it must fail.
  auto r = mem.conn.Query("SELECT * FROM iceberg_scan('/nonexistent')");
  ASSERT_FALSE(r.has_value());
  EXPECT_THAT(r.error().message, HasSubstr("iceberg"));
}

}  // namespace
}  // namespace databox::duck
