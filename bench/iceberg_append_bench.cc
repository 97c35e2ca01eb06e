// Iceberg append benchmark: (1) appends 10 M rows x 5 columns (DuckDB-generated) through
// WriteDataFiles + one append commit and prints rows/s; (2) measures the commit overhead of a
// one-file append when the table already has 10, 100 and 1,000 snapshots. For (2) the appended
// DataFile reuses the statistics of one real small file under a new path: a commit never reads
// data files, so this isolates manifest + metadata work. Prints peak RSS at the end.
//
// usage: iceberg_append_bench [rows=10000000] [max_snapshots=1000]  (levels 10, 100, 1000 up
// to max_snapshots)
#include <stdlib.h>
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>

#include "bench/bench_util.h"
#include "catalog/sql/sql_catalog.h"
#include "duck/connection.h"
#include "duck/database.h"
#include "fileio/local/local_file_io.h"
#include "iceberg/data_files.h"
#include "iceberg/table_scan.h"

namespace {

using namespace databox;
using bench::Clock;
using bench::Must;
using bench::Seconds;

iceberg::NestedField Field(int32_t id, const char* name, iceberg::Type type) {
  return iceberg::NestedField{.id = id, .name = name, .required = false, .type = type, .doc = {}};
}

}  // namespace

int main(int argc, char** argv) {
  const int64_t rows = argc > 1 ? std::stoll(argv[1]) : 10'000'000;
  const int max_snapshots = argc > 2 ? std::stoi(argv[2]) : 1000;
  std::string templ = (std::filesystem::temp_directory_path() / "iceberg_bench_XXXXXX").native();
  if (::mkdtemp(templ.data()) == nullptr) return 1;
  const std::filesystem::path dir = templ;
  auto io = std::make_shared<fileio::LocalFileIO>();
  auto catalog =
      Must(catalog::sql::SqlCatalog::Open({.name = "bench",
                                           .uri = "sqlite:///" + (dir / "c.db").native(),
                                           .warehouse = "file://" + (dir / "wh").native()},
                                          io),
           "open catalog");
  Must(catalog->CreateNamespace({"bench"}, {}), "create namespace");
  const iceberg::Schema schema(
      0, {Field(1, "id", iceberg::Type::Long()), Field(2, "a", iceberg::Type::Long()),
          Field(3, "b", iceberg::Type::Double()), Field(4, "c", iceberg::Type::String()),
          Field(5, "d", iceberg::Type::Timestamp())});
  for (const char* name : {"big", "small"}) {
    Must(catalog->CreateTable({{"bench"}, name}, schema, iceberg::PartitionSpec::Unpartitioned(),
                              iceberg::SortOrder::Unsorted(), {}, std::nullopt),
         "create table");
  }
  auto db = Must(duck::Database::Open(""), "open duckdb");
  auto conn = Must(duck::Connection::Open(db), "connect duckdb");

  // (1) Bulk append.
  {
    auto table = Must(iceberg::Table::Load(*catalog, io, {{"bench"}, "big"}), "load");
    const std::string select =
        "SELECT range AS id, range % 1000 AS a, range::DOUBLE * 0.5 AS b, 'name_' || (range % "
        "100000) AS "
        "c, "
        "TIMESTAMP '2024-01-01' + to_seconds(range) AS d FROM range(" +
        std::to_string(rows) + ")";
    const auto start = Clock::now();
    auto files = Must(iceberg::WriteDataFiles(conn, *io, table.metadata(), select), "write");
    const double write_s = Seconds(start);
    auto op = table.NewAppend();
    op->AddFiles(files);
    const auto commit_start = Clock::now();
    Must(op->Commit(*catalog), "commit");
    const double commit_s = Seconds(commit_start);
    const double total = Seconds(start);
    std::printf(
        "bulk append: %lld rows x 5 columns, %zu files, write %.2f s, commit %.1f ms, "
        "%.2f M rows/s\n",
        static_cast<long long>(rows), files.size(), write_s, commit_s * 1000,
        static_cast<double>(rows) / total / 1e6);
  }

  // (2) Commit overhead of a one-file append by number of existing snapshots.
  {
    auto table = Must(iceberg::Table::Load(*catalog, io, {{"bench"}, "small"}), "load");
    auto sample = Must(iceberg::WriteDataFiles(conn, *io, table.metadata(),
                                               "SELECT 1 AS id, 2 AS a, 3.0 AS b, 'x' AS c, "
                                               "TIMESTAMP '2024-01-01' AS d"),
                       "write sample");
    int snapshots = 0;
    auto append_one = [&] {
      auto t = Must(iceberg::Table::Load(*catalog, io, {{"bench"}, "small"}), "load");
      iceberg::DataFile file = sample.front();
      file.file_path = file.file_path + "." + std::to_string(snapshots) + ".parquet";
      auto op = t.NewAppend();
      op->AddFile(file);
      const auto start = Clock::now();
      Must(op->Commit(*catalog), "commit");
      ++snapshots;
      return Seconds(start);
    };
    for (int level : {10, 100, 1000}) {
      if (level > max_snapshots) break;
      while (snapshots < level) append_one();
      constexpr int kSamples = 10;
      double total = 0;
      for (int i = 0; i < kSamples; ++i) total += append_one();
      std::printf(
          "one-file append commit at %d snapshots: %.1f ms (mean of %d, incl. table load "
          "in commit)\n",
          level, total / kSamples * 1000, kSamples);
    }
  }

  std::printf("peak RSS: %.1f MB\n", bench::PeakRssMb());
  std::error_code ignored;
  std::filesystem::remove_all(dir, ignored);
  return 0;
}
