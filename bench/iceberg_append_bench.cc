// Iceberg append benchmark: (1) appends 10 M rows x 5 columns (DuckDB-generated) through
// WriteDataFiles + one append commit and prints rows/s; (2) measures the commit overhead of a
// one-file append when the table already has 10, 100 and 1,000 snapshots. For (2) the appended
// DataFile reuses the statistics of one real small file under a new path: a commit never reads
// data files, so this isolates manifest + metadata work. Prints peak RSS at the end.
//
// usage: iceberg_append_bench [rows=10000000] [max_snapshots=1000]  (levels 10, 100, 1000 up
// to max_snapshots). Per level: mean and median wall time, the median CPU time of the
// committing thread (what remains when fsync waits are taken out) and the metadata JSON size.
#include <stdlib.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "bench/bench_util.h"
#include "catalog/sql/sql_catalog.h"
#include "duck/connection.h"
#include "duck/database.h"
#include "fileio/local/local_file_io.h"
#include "iceberg/data/data_files.h"
#include "iceberg/table.h"

namespace {

using namespace databox;
using bench::Clock;
using bench::Field;
using bench::Must;
using bench::Seconds;

//! CPU seconds of this thread so far (user + kernel; time blocked in fsync is not CPU).
double ThreadCpuSeconds() {
  timespec ts{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

//! "file:///x" -> "/x" (the bench's warehouse is local).
std::string LocalPath(std::string_view location) {
  if (location.starts_with("file://")) location.remove_prefix(7);
  return std::string(location);
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
    struct Sample {
      double wall_s;
      double cpu_s;  // this thread: excludes time blocked in fsync
    };
    // One-file appends to `name`, which has `snapshots` snapshots so far.
    auto append_one = [&](const std::string& name, int& snapshots) {
      auto t = Must(iceberg::Table::Load(*catalog, io, {{"bench"}, name}), "load");
      iceberg::DataFile file = sample.front();
      file.file_path = file.file_path + "." + name + std::to_string(snapshots) + ".parquet";
      auto op = t.NewAppend();
      op->AddFile(file);
      const double cpu_start = ThreadCpuSeconds();
      const auto start = Clock::now();
      auto committed = Must(op->Commit(*catalog), "commit");
      const Sample timing{Seconds(start), ThreadCpuSeconds() - cpu_start};
      ++snapshots;
      return std::pair(timing, committed.metadata_location);
    };
    // Grows `name` to `level` snapshots, then prints the mean and medians of 10 more commits.
    auto measure = [&](const std::string& name, int& snapshots, int level, const char* label) {
      while (snapshots < level) append_one(name, snapshots);
      constexpr int kSamples = 10;
      std::vector<double> walls, cpus;
      std::string metadata_location;
      for (int i = 0; i < kSamples; ++i) {
        auto [one, location] = append_one(name, snapshots);
        walls.push_back(one.wall_s);
        cpus.push_back(one.cpu_s);
        metadata_location = location;
      }
      double total = 0;
      for (double w : walls) total += w;
      std::error_code size_error;
      const auto bytes = std::filesystem::file_size(LocalPath(metadata_location), size_error);
      std::printf(
          "one-file append commit at %d snapshots%s: %.1f ms (mean of %d, incl. table load "
          "in commit; median %.1f ms, main-thread CPU median %.1f ms; metadata JSON %.0f KB)\n",
          level, label, total / kSamples * 1000, kSamples, bench::Quantile(walls, 0.5) * 1000,
          bench::Quantile(cpus, 0.5) * 1000, size_error ? -1.0 : static_cast<double>(bytes) / 1024);
    };
    int snapshots = 0;
    for (int level : {10, 100, 1000}) {
      if (level > max_snapshots) break;
      measure("small", snapshots, level, "");
    }
    // Control: a new table in the same folder, right after. Its history is short, the file
    // system's state is the one the longest history was measured in: a commit here as slow as
    // the 1,000-snapshot one means the file system, not the history, made the difference.
    Must(catalog->CreateTable({{"bench"}, "control"}, schema,
                              iceberg::PartitionSpec::Unpartitioned(),
                              iceberg::SortOrder::Unsorted(), {}, std::nullopt),
         "create table");
    int control_snapshots = 0;
    measure("control", control_snapshots, 10, " (new table, after the others)");
  }

  double load[3] = {0, 0, 0};
  if (::getloadavg(load, 3) == 3)
    std::printf("load average: %.2f %.2f %.2f\n", load[0], load[1], load[2]);
  std::printf("peak RSS: %.1f MB\n", bench::PeakRssMb());
  std::error_code ignored;
  std::filesystem::remove_all(dir, ignored);
  return 0;
}
