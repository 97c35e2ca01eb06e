// PostgreSQL client failures in words (the texts are the ones libpq, pg_dump and pg_restore 15
// print), the archive's table list, and the real pg_dump against a port nothing listens on.
#include "platform/pg_client.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <stdlib.h>

#include "platform/catalog_backup_pg.h"

namespace databox::platform {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;
constexpr const char* kUrl = "postgresql://dbx@127.0.0.1:5999/lake";
constexpr const char* kPassword = "pw-4471-secret";

TEST(PgClientTest, FailuresAreClassifiedAndNameTheUrlWithoutThePassword) {
  const Error refused = ClassifyPgFailure(
      "pg_dump", "back up", kUrl, kPassword, 1,
      "pg_dump: error: connection to server at \"127.0.0.1\", port 5999 failed: Connection "
      "refused\n\tIs the server running on that host and accepting TCP/IP connections?\n");
  EXPECT_EQ(refused.kind, ErrorKind::kNetwork);
  EXPECT_THAT(refused.message,
              HasSubstr(std::string("cannot connect to the catalog database ") + kUrl));

  const Error auth = ClassifyPgFailure(
      "pg_dump", "back up", kUrl, kPassword, 1,
      "pg_dump: error: connection to server at \"127.0.0.1\", port 5999 failed: FATAL:  password "
      "authentication failed for user \"dbx\" (tried pw-4471-secret)\n");
  EXPECT_EQ(auth.kind, ErrorKind::kAuth);
  EXPECT_THAT(auth.message, HasSubstr("authentication to the catalog database"));
  EXPECT_THAT(auth.message, Not(HasSubstr(kPassword)));

  const Error version = ClassifyPgFailure(
      "pg_dump", "back up", kUrl, kPassword, 1,
      "pg_dump: error: aborting because of server version mismatch\npg_dump: detail: server "
      "version: 16.4 (Debian 16.4-1); pg_dump version: 15.18 (Debian 15.18-0+deb12u1)\n");
  EXPECT_EQ(version.kind, ErrorKind::kConfig);
  EXPECT_THAT(version.message, HasSubstr("server version mismatch"));
  EXPECT_THAT(version.message, HasSubstr("server version: 16.4"));
  EXPECT_THAT(version.message, HasSubstr("postgresql-client"));

  const Error archive =
      ClassifyPgFailure("pg_restore", "read the backup for", kUrl, kPassword, 1,
                        "pg_restore: error: unsupported version (1.16) in file header\n");
  EXPECT_EQ(archive.kind, ErrorKind::kConfig);
  EXPECT_THAT(archive.message, HasSubstr("unsupported version (1.16)"));

  const Error other = ClassifyPgFailure("pg_restore", "restore", kUrl, kPassword, 1,
                                        "pg_restore: error: could not execute query: boom\n");
  EXPECT_EQ(other.kind, ErrorKind::kIo);
  EXPECT_THAT(other.message, HasSubstr("pg_restore failed to restore the catalog database"));
  EXPECT_THAT(other.message, HasSubstr("boom"));
}

TEST(PgClientTest, ArchiveTablesFromTheListing) {
  const std::string listing =
      ";\n; Archive created at 2026-12-02 16:35:16 UTC\n;     dbname: iceberg_fallback\n"
      "215; 1259 16390 TABLE public iceberg_tables polaris\n"
      "216; 1259 16385 TABLE public iceberg_namespace_properties polaris\n"
      "3345; 0 16390 TABLE DATA public iceberg_tables polaris\n"
      "3190; 2606 16396 CONSTRAINT public iceberg_tables iceberg_tables_pkey polaris\n";
  EXPECT_EQ(ArchiveTables(listing), (std::vector<std::string>{"public.iceberg_namespace_properties",
                                                              "public.iceberg_tables"}));
  EXPECT_TRUE(ArchiveTables("; nothing\n").empty());
}

// The real pg_dump (Debian's postgresql-client, installed by scripts/setup) against a port
// nothing listens on: a connection error naming the URL, without the password.
TEST(PgClientTest, RealPgDumpAgainstAClosedPort) {
  std::string templ = (fs::temp_directory_path() / "pg_client_XXXXXX").native();
  ASSERT_NE(::mkdtemp(templ.data()), nullptr);
  const fs::path dir = templ;
  registry::CatalogSettings catalog;
  catalog.type = registry::CatalogType::kRest;
  catalog.backup.database_url = "postgresql://dbx@127.0.0.1:1/lake";
  catalog.backup.database_password = registry::Secret("DB_PW", kPassword, true);
  const Status dumped = DumpCatalogDatabase(catalog, dir / "x.pgdump");
  ASSERT_FALSE(dumped.has_value());
  EXPECT_EQ(dumped.error().kind, ErrorKind::kNetwork) << dumped.error().message;
  EXPECT_THAT(dumped.error().message, HasSubstr("postgresql://dbx@127.0.0.1:1/lake"));
  EXPECT_THAT(dumped.error().message, Not(HasSubstr(kPassword)));
  fs::remove_all(dir);
}

}  // namespace
}  // namespace databox::platform
