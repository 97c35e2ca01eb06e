// Merge benchmark: upsert `upsert` rows, of which 10 % update existing keys and
// 90 % are new, into a table of `base` rows (identifier field `id`) with PrepareMerge + one
// commit. The base table is written beforehand (not timed) with the rows' ids in order. The
// mode is copy-on-write (rewrite the files holding updated keys) or merge-on-read (position
// delete files for the updated rows). After the commit, the merged table is read once (count
// of rows, through the delete files for merge-on-read) and that read is timed too, as read_s.
//
// usage: merge_bench [base=10000000] [upsert=1000000] [copy-on-write|merge-on-read]
// Prints one line "result: key=value ..." for scripts/bench.
#include <cstdio>
#include <string>

#include "bench/bench_util.h"
#include "duck/connection.h"
#include "duck/database.h"
#include "iceberg/data/data_files.h"
#include "iceberg/data/merge.h"
#include "iceberg/data/scan_sql.h"

namespace {

using namespace databox;
using bench::Clock;
using bench::Field;
using bench::Must;

// Rows with ids in [from, from + count): the same columns for the base and the upsert.
std::string Rows(int64_t from, int64_t count, const char* tag) {
  return "SELECT range AS id, range % 1000 AS a, range::DOUBLE * 0.5 AS b, '" + std::string(tag) +
         "_' || (range % 100000) AS c, TIMESTAMP '2024-01-01' + to_seconds(range) AS d FROM "
         "range(" +
         std::to_string(from) + ", " + std::to_string(from + count) + ")";
}

}  // namespace

int main(int argc, char** argv) {
  const int64_t base = argc > 1 ? std::stoll(argv[1]) : 10'000'000;
  const int64_t upsert = argc > 2 ? std::stoll(argv[2]) : 1'000'000;
  const int64_t updates = upsert / 10;
  const std::string mode = argc > 3 ? argv[3] : "copy-on-write";
  if (mode != "copy-on-write" && mode != "merge-on-read") {
    std::fprintf(stderr, "mode must be copy-on-write or merge-on-read, not %s\n", mode.c_str());
    return 2;
  }
  iceberg::RowChangeOptions options;
  options.mode = mode == "merge-on-read" ? iceberg::RowChangeMode::kMergeOnRead
                                         : iceberg::RowChangeMode::kCopyOnWrite;
  auto warehouse = bench::Warehouse::Make();
  const iceberg::Schema schema(
      0,
      {Field(1, "id", iceberg::Type::Long(), true), Field(2, "a", iceberg::Type::Long(), false),
       Field(3, "b", iceberg::Type::Double(), false), Field(4, "c", iceberg::Type::String(), false),
       Field(5, "d", iceberg::Type::Timestamp(), false)},
      {1});
  Must(warehouse->catalog->CreateTable({{"bench"}, "t"}, schema,
                                       iceberg::PartitionSpec::Unpartitioned(),
                                       iceberg::SortOrder::Unsorted(), {}, std::nullopt),
       "create table");
  auto db = Must(duck::Database::Open(""), "open duckdb");
  auto conn = Must(duck::Connection::Open(db), "connect duckdb");
  {
    auto table =
        Must(iceberg::Table::Load(*warehouse->catalog, warehouse->io, {{"bench"}, "t"}), "load");
    auto files =
        Must(iceberg::WriteDataFiles(conn, *warehouse->io, table.metadata(), Rows(0, base, "base")),
             "write base");
    auto op = table.NewAppend();
    op->AddFiles(std::move(files));
    Must(op->Commit(*warehouse->catalog), "commit base");
  }
  // Updates: the last `updates` ids of the base; inserts: the ids after it.
  Must(conn.Execute("CREATE TABLE incoming AS " + Rows(base - updates, upsert, "new")),
       "stage incoming");

  const auto start = Clock::now();
  auto table =
      Must(iceberg::Table::Load(*warehouse->catalog, warehouse->io, {{"bench"}, "t"}), "load");
  auto op =
      Must(iceberg::PrepareMerge(conn, table, "SELECT * FROM incoming", options), "prepare merge");
  Must(op->Commit(*warehouse->catalog), "commit merge");
  const double seconds = bench::Seconds(start);

  Must(table.Refresh(), "refresh");
  const auto read_start = Clock::now();
  auto sql = Must(iceberg::ReadSql(table), "read sql");
  auto counted =
      Must(conn.Query("SELECT count(*), count(*) FILTER (WHERE c LIKE 'new_%') FROM (" + sql + ")"),
           "count");
  const int64_t total = Must(counted.GetInt64(0, 0), "count");
  const int64_t fresh = Must(counted.GetInt64(1, 0), "count");
  const double read_seconds = bench::Seconds(read_start);
  if (total != base + upsert - updates || fresh != upsert) {
    std::fprintf(stderr, "wrong result: %lld rows (%lld new), expected %lld (%lld new)\n",
                 static_cast<long long>(total), static_cast<long long>(fresh),
                 static_cast<long long>(base + upsert - updates), static_cast<long long>(upsert));
    return 1;
  }
  std::printf(
      "result: base=%lld upsert=%lld updates=%lld mode=%s seconds=%.3f rows_per_s=%.0f "
      "read_s=%.3f self_peak_rss_mb=%.1f\n",
      static_cast<long long>(base), static_cast<long long>(upsert), static_cast<long long>(updates),
      mode.c_str(), seconds, static_cast<double>(upsert) / seconds, read_seconds,
      bench::PeakRssMb());
  return 0;
}
