// File-ingest benchmark: one input file -> Iceberg tables in a
// local warehouse with the embedded SQLite catalog, ONE commit at the end.
//
//   ndjson  nested records through the dlt-compatible normalizer (root table + child tables
//           for lists, `__`-flattened objects, _dlt_load_id/_dlt_id, dlt type inference),
//           streamed into one Parquet COPY per table while the file is read
//           (load::StreamedFiles, as `databox ingest` writes): each table's batches go over a
//           queue of --queue-batches that the COPY (WriteDataFiles over the databox_scan table
//           function, no staging table) reads and frees as it goes, rolling over to a new file at
//           the target file size (256 MB). Memory is the queues plus DuckDB's row-group
//           buffers, whatever the input size.
//   csv     a flat CSV written straight into data files as `databox ingest` writes CSV
//           (load/direct_ingest.h): DuckDB read_csv with its type detection, the columns named
//           in snake_case as the normalizer would, plus _dlt_load_id and _dlt_id (a C++
//           function); no normalizer is needed for flat rows.
//
// usage: ingest_bench ndjson|csv <input> [--flush-rows N] [--queue-batches N]
//                     [--scan-threads N] [--workers N] [--tmp DIR] [--duck-setting NAME=VALUE]...
// Prints one line "result: key=value ..." for scripts/bench.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "bench/bench_util.h"
#include "duck/connection.h"
#include "duck/database.h"
#include "duck/quote.h"
#include "iceberg/commit/commit.h"
#include "iceberg/commit/table_operations.h"
#include "iceberg/data/data_files.h"
#include "iceberg/metadata/table_update.h"
#include "load/direct_ingest.h"
#include "load/load_id.h"
#include "load/staging.h"
#include "load/stream_ingest.h"
#include "load/streamed_files.h"
#include "normalize/normalizer.h"

namespace {

using namespace databox;
using bench::Clock;
using bench::Must;

struct Options {
  std::string format;               //!< ndjson | csv
  std::string input;                //!< input file
  std::size_t flush_rows = 50'000;  //!< normalizer rows per batch
  std::size_t workers = 0;          //!< normalizer threads; 0: one per core
  std::size_t queue_batches = 2;    //!< batches waiting per table before the producer waits
  std::size_t scan_threads = 1;     //!< DuckDB threads reading each table's batches
  std::string tmp;                  //!< parent of the temporary warehouse
  std::vector<std::pair<std::string, std::string>> duck_settings;  //!< --duck-setting NAME=VALUE
};

//! One output table: its metadata (fixed by its first batch) and the files written.
struct OutputTable {
  iceberg::TableMetadata metadata;
  std::vector<iceberg::DataFile> files;
  int64_t rows = 0;
};

//! Where a new table's files go: a table `name` under the warehouse, created by the commit.
Result<load::TableTarget> NewTable(const bench::Warehouse& warehouse,
                                   const normalize::TableSchema& table) {
  DATABOX_ASSIGN_OR_RETURN(auto schema, load::IcebergSchemaFor(table));
  DATABOX_ASSIGN_OR_RETURN(
      auto metadata, iceberg::NewTableMetadata(schema, iceberg::PartitionSpec::Unpartitioned(),
                                               iceberg::SortOrder::Unsorted(),
                                               warehouse.Location(table.name), {}));
  return load::TableTarget{std::move(metadata), true};
}

class NdjsonIngest {
 public:
  NdjsonIngest(const Options& options, bench::Warehouse& warehouse, duck::Database& db)
      : options_(options), warehouse_(warehouse), db_(db) {}

  std::map<std::string, OutputTable> Run() {
    hints_.resource = "events";
    hints_.table_name = "events";
    const std::string load_id = load::NewLoadId();
    // Reading + parsing + normalizing run on the stream's threads (--workers blocks at once);
    // handing batches over on this one, Parquet writing on one thread per table
    // (load::StreamedFiles, the writer of `databox ingest`).
    auto stream =
        Must(load::NdjsonBatchStream::Start(
                 options_.input, hints_, load_id, {},
                 {.flush_rows = options_.flush_rows, .max_queued = 2, .workers = options_.workers}),
             "start stream");
    load::StreamedFiles writer(
        db_, *warehouse_.io,
        [this](const normalize::TableSchema& table) { return NewTable(warehouse_, table); },
        {.queue_batches = options_.queue_batches, .scan_threads = options_.scan_threads});
    while (true) {
      auto wait = Clock::now();
      auto batches = Must(stream->Next(), "normalize");
      wait_s += bench::Seconds(wait);
      if (batches.empty()) break;
      const auto push = Clock::now();
      for (normalize::TableBatch& batch : batches) {
        const std::string name = batch.schema.name;
        Must(writer.Push(std::move(batch)), ("write data files of " + name).c_str());
      }
      push_s += bench::Seconds(push);
    }
    std::map<std::string, OutputTable> outputs;
    for (auto& [name, written] : Must(writer.Finish(), "write data files")) {
      outputs[name] =
          OutputTable{std::move(written.metadata), std::move(written.files), written.rows};
    }
    data_files_s = writer.copy_seconds();
    const load::NdjsonStreamStats stats = stream->stats();
    read_s = stats.read_s;
    normalize_s = stats.normalize_s;
    producer_wait_s = stats.wait_s;
    blocks = stats.blocks;
    renormalized = stats.renormalized;
    return outputs;
  }

  double read_s = 0;           //!< stream thread: reading the file
  double normalize_s = 0;      //!< stream threads: simdjson parse + Normalizer (summed)
  double producer_wait_s = 0;  //!< stream threads: waiting for this thread (queue full)
  int64_t blocks = 0;          //!< blocks of lines the stream normalized
  int64_t renormalized = 0;    //!< blocks normalized again after a schema conflict
  double wait_s = 0;           //!< this thread: waiting for normalized batches
  double push_s = 0;           //!< this thread: handing batches to the COPYs (full queues)
  double data_files_s = 0;     //!< the longest table's COPY (they run at once)

 private:
  const Options& options_;
  bench::Warehouse& warehouse_;
  duck::Database& db_;
  normalize::ResourceHints hints_;
};

// The CSV (scripts/bench generates it) as `databox ingest` writes it: one COPY from read_csv.
std::map<std::string, OutputTable> CsvIngest(const Options& options, bench::Warehouse& warehouse,
                                             duck::Connection& conn) {
  Must(conn.Execute("SET preserve_insertion_order = false"), "set up duckdb");
  Must(load::RegisterDltIdFunction(conn), "register the _dlt_id function");
  auto input =
      Must(load::DescribeDirectInput(conn, options.input, options.input, load::IngestFormat::kCsv,
                                     "readings", "readings", load::NewLoadId()),
           "describe the CSV");
  if (!input) {
    std::fprintf(stderr, "%s does not fit the direct path\n", options.input.c_str());
    std::exit(1);
  }
  auto written =
      Must(load::WriteDirectInputs(
               conn, *warehouse.io, {*input},
               [&](const normalize::TableSchema& table) { return NewTable(warehouse, table); }, {}),
           "write data files");
  if (!written) {
    std::fprintf(stderr, "%s does not fit the direct path\n", options.input.c_str());
    std::exit(1);
  }
  std::map<std::string, OutputTable> outputs;
  outputs.emplace("readings", OutputTable{std::move(written->metadata), std::move(written->files),
                                          written->rows});
  return outputs;
}

Options ParseArgs(int argc, char** argv) {
  if (argc < 3 || (std::strcmp(argv[1], "ndjson") != 0 && std::strcmp(argv[1], "csv") != 0)) {
    std::fprintf(stderr,
                 "usage: ingest_bench ndjson|csv <input> [--flush-rows N] [--queue-batches N] "
                 "[--scan-threads N] [--workers N] [--tmp DIR] [--duck-setting NAME=VALUE]...\n");
    std::exit(2);
  }
  Options options;
  options.format = argv[1];
  options.input = argv[2];
  for (int i = 3; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--flush-rows") {
      options.flush_rows = std::stoull(argv[i + 1]);
    } else if (flag == "--queue-batches") {
      options.queue_batches = std::stoull(argv[i + 1]);
    } else if (flag == "--scan-threads") {
      options.scan_threads = std::stoull(argv[i + 1]);
    } else if (flag == "--workers") {
      options.workers = std::stoull(argv[i + 1]);
    } else if (flag == "--tmp") {
      options.tmp = argv[i + 1];
    } else if (flag == "--duck-setting") {
      const std::string kv = argv[i + 1];
      const size_t eq = kv.find('=');
      if (eq == std::string::npos) {
        std::fprintf(stderr, "--duck-setting wants NAME=VALUE, not %s\n", kv.c_str());
        std::exit(2);
      }
      options.duck_settings.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
    } else {
      std::fprintf(stderr, "unknown flag %s\n", flag.c_str());
      std::exit(2);
    }
  }
  return options;
}

}  // namespace

int main(int argc, char** argv) {
  const Options options = ParseArgs(argc, argv);
  const double input_mb =
      static_cast<double>(std::filesystem::file_size(options.input)) / (1024.0 * 1024.0);
  auto warehouse = bench::Warehouse::Make(options.tmp);
  auto db = Must(duck::Database::Open("", {.settings = options.duck_settings}), "open duckdb");
  auto conn = Must(duck::Connection::Open(db), "connect duckdb");

  const auto start = Clock::now();
  std::string phases;
  std::map<std::string, OutputTable> outputs;
  if (options.format == "ndjson") {
    NdjsonIngest ingest(options, *warehouse, db);
    outputs = ingest.Run();
    char text[400];
    std::snprintf(text, sizeof text,
                  " read_s=%.2f normalize_s=%.2f producer_wait_s=%.2f wait_s=%.2f push_s=%.2f "
                  "data_files_s=%.2f blocks=%lld renormalized=%lld",
                  ingest.read_s, ingest.normalize_s, ingest.producer_wait_s, ingest.wait_s,
                  ingest.push_s, ingest.data_files_s, static_cast<long long>(ingest.blocks),
                  static_cast<long long>(ingest.renormalized));
    phases = text;
  } else {
    outputs = CsvIngest(options, *warehouse, conn);
  }
  const double write_s = bench::Seconds(start);

  // One atomic commit creating every table with its files.
  std::vector<std::unique_ptr<iceberg::SnapshotOperation>> ops;
  std::vector<iceberg::TableChange*> changes;
  int64_t rows = 0, root_rows = 0;
  std::size_t files = 0;
  uint64_t output_bytes = 0;
  for (auto& [name, out] : outputs) {
    for (const auto& f : out.files) output_bytes += static_cast<uint64_t>(f.file_size_in_bytes);
    auto op = iceberg::SnapshotOperation::Append({{"bench"}, name}, warehouse->io);
    op->CreateIfMissing(iceberg::CreateTableUpdates(out.metadata));
    files += out.files.size();
    op->AddFiles(std::move(out.files));
    rows += out.rows;
    if (name == "events" || name == "readings") root_rows = out.rows;
    changes.push_back(op.get());
    ops.push_back(std::move(op));
  }
  const auto commit_start = Clock::now();
  Must(iceberg::CommitChanges(*warehouse->catalog, *warehouse->io, changes), "commit");
  const double commit_s = bench::Seconds(commit_start);
  const double total_s = bench::Seconds(start);
  std::printf(
      "result: format=%s input_mb=%.1f records=%lld rows_all_tables=%lld tables=%zu files=%zu "
      "output_mb=%.1f seconds=%.3f write_s=%.3f commit_ms=%.1f records_per_s=%.0f mb_per_s=%.1f "
      "self_peak_rss_mb=%.1f%s\n",
      options.format.c_str(), input_mb, static_cast<long long>(root_rows),
      static_cast<long long>(rows), outputs.size(), files,
      static_cast<double>(output_bytes) / (1024.0 * 1024.0), total_s, write_s, commit_s * 1000,
      static_cast<double>(root_rows) / total_s, input_mb / total_s, bench::PeakRssMb(),
      phases.c_str());
  return 0;
}
