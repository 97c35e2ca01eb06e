// REST + S3 append benchmark: one-file appends through the catalog and storage of a registry
// (a REST catalog server with an S3 warehouse, as scripts/bench starts them), the way pyiceberg's
// `table.append` is used: each append loads the table, writes one small Parquet data file to
// the warehouse and commits it (the steps of SnapshotOperation::Commit without a conflict:
// manifest and manifest list written by us, then the commit request the server applies).
// Prints the latency of each phase (p50, p95) and the time of all
// appends in sequence, as `result:` lines for scripts/bench; then, as the storage floor, the
// latency of writing one 4 KB object (a commit writes two: a manifest and a manifest list).
//
// usage: rest_append_bench CONFIG [appends=100] [rows_per_file=10]
// The table is bench_rest.appends (dropped first when it exists, left behind afterwards).
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "bench/bench_util.h"
#include "duck/connection.h"
#include "duck/database.h"
#include "iceberg/commit/commit.h"
#include "iceberg/commit/table_operations.h"
#include "iceberg/data/data_files.h"
#include "iceberg/table.h"
#include "platform/workspace.h"
#include "registry/registry.h"

namespace {

using namespace databox;
using bench::Clock;
using bench::Field;
using bench::Must;
using bench::Quantile;
using bench::Seconds;

void PrintPhase(const char* phase, const std::vector<double>& seconds) {
  std::printf("result: phase=%s p50_ms=%.2f p95_ms=%.2f max_ms=%.2f\n", phase,
              Quantile(seconds, 0.5) * 1000, Quantile(seconds, 0.95) * 1000,
              *std::max_element(seconds.begin(), seconds.end()) * 1000);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: rest_append_bench CONFIG [appends=100] [rows_per_file=10]\n");
    return 2;
  }
  const int appends = argc > 2 ? std::stoi(argv[2]) : 100;
  const int rows = argc > 3 ? std::stoi(argv[3]) : 10;
  if (appends < 1 || rows < 1) {
    std::fprintf(stderr, "rest_append_bench: appends and rows_per_file must be positive\n");
    return 2;
  }
  const auto registry = Must(registry::LoadRegistry(argv[1]), "load registry");
  auto workspace = Must(platform::OpenWorkspace(registry), "open catalog and storage");
  iceberg::Catalog& catalog = workspace->catalog();
  auto io = workspace->file_io();

  const iceberg::Namespace ns{"bench_rest"};
  const iceberg::TableIdentifier id{ns, "appends"};
  if (!Must(catalog.NamespaceExists(ns), "namespace exists")) {
    Must(catalog.CreateNamespace(ns, {}), "create namespace");
  }
  if (Must(catalog.TableExists(id), "table exists")) Must(catalog.DropTable(id), "drop table");
  const iceberg::Schema schema(
      0, {Field(1, "id", iceberg::Type::Long()), Field(2, "name", iceberg::Type::String()),
          Field(3, "value", iceberg::Type::Double())});
  Must(catalog.CreateTable(id, schema, iceberg::PartitionSpec::Unpartitioned(),
                           iceberg::SortOrder::Unsorted(), {}, std::nullopt),
       "create table");

  auto db = Must(duck::Database::Open(""), "open duckdb");
  auto conn = Must(duck::Connection::Open(db), "connect duckdb");
  std::vector<double> load_s, write_s, manifests_s, request_s, total_s;
  const auto all_start = Clock::now();
  for (int i = 0; i < appends; ++i) {
    // The steps of SnapshotOperation::Commit (CommitChange) without a conflict, timed apart.
    const auto start = Clock::now();
    auto base = Must(catalog.LoadTable(id), "load table");
    const auto loaded = Clock::now();
    const std::string select = "SELECT range + " + std::to_string(i * rows) +
                               " AS id, 'name_' || range AS name, range * 0.5 AS value FROM "
                               "range(" +
                               std::to_string(rows) + ")";
    auto files = Must(iceberg::WriteDataFiles(conn, *io, base.metadata, select), "write");
    const auto written = Clock::now();
    auto op = iceberg::SnapshotOperation::Append(id, io);
    op->AddFiles(files);
    auto planned = Must(op->Plan(&base), "write manifest and manifest list");
    const auto planned_at = Clock::now();
    iceberg::TableCommit commit{id, iceberg::DeriveRequirements(&base.metadata, planned.updates),
                                planned.updates};
    commit.requirements.insert(commit.requirements.end(), planned.requirements.begin(),
                               planned.requirements.end());
    Must(catalog.CommitTable(commit), "commit request");
    load_s.push_back(std::chrono::duration<double>(loaded - start).count());
    write_s.push_back(std::chrono::duration<double>(written - loaded).count());
    manifests_s.push_back(std::chrono::duration<double>(planned_at - written).count());
    request_s.push_back(Seconds(planned_at));
    total_s.push_back(Seconds(start));
  }
  const double all = Seconds(all_start);
  // The storage floor: one small object written (as a manifest is) with nothing else around it,
  // named as a manifest is (SeaweedFS's table bucket refused <table>/data/bench-floor/N.bin).
  std::vector<double> put_s;
  // The table's uuid in the names: a server that keeps a dropped table's files (the reference
  // adapter) still has the objects of an earlier run.
  const auto reloaded = Must(iceberg::Table::Load(catalog, io, id), "reload table");
  const std::string floor_folder = reloaded.metadata().location + "/metadata/bench-floor-" +
                                   reloaded.metadata().table_uuid + "-";
  const std::string bytes(4096, 'x');
  for (int i = 0; i < appends; ++i) {
    const auto start = Clock::now();
    Must(io->WriteNew(floor_folder + std::to_string(i) + ".avro", bytes), "write 4 KB object");
    put_s.push_back(Seconds(start));
  }

  auto check = Must(iceberg::Table::Load(catalog, io, id), "reload table");
  const auto* current = check.metadata().CurrentSnapshot();
  std::printf("catalog %s: %d one-file appends of %d rows to %s\n",
              std::string(catalog.Name()).c_str(), appends, rows, id.ToString().c_str());
  PrintPhase("load", load_s);
  PrintPhase("write", write_s);
  PrintPhase("manifests", manifests_s);
  PrintPhase("commit_request", request_s);
  PrintPhase("append", total_s);
  PrintPhase("s3_put_4kb", put_s);
  std::printf("result: tool=databox appends=%d seconds=%.3f appends_per_s=%.1f peak_rss_mb=%.1f\n",
              appends, all, appends / all, bench::PeakRssMb());
  return current == nullptr ? 1 : 0;
}
