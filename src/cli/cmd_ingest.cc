// `databox ingest FILE... --table raw_<name>.<table>`: files loaded into one raw table, committed
// as a source load is (load/file_ingest.h). Progress goes to stderr, one line per file read.
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/loaded_tables.h"
#include "cli/output.h"
#include "cli/session.h"
#include "common/enum_names.h"
#include "common/exit_code.h"
#include "common/interrupt.h"
#include "common/write_disposition.h"
#include "load/file_ingest.h"
#include "refresh/single_load.h"
#include "registry/table_layout.h"

namespace databox::cli {
namespace {

//! What `databox ingest` parsed.
struct IngestArgs {
  std::vector<std::string> files;
  std::string table;
  std::string format;  //!< empty: by file name
  std::string disposition = "append";
  std::vector<std::string> primary_key;
  std::string merge_mode;              //!< empty: the table's write.merge.mode
  std::vector<std::string> partition;  //!< registry::ParsePartitionTerm terms
  std::vector<std::string> sort;       //!< registry::ParseSortTerm terms
};

std::string ProgressLine(const load::IngestProgress& p) {
  char text[200];
  if (p.commit) {
    std::snprintf(text, sizeof text, "committing %lld records (%.1f s)\n",
                  static_cast<long long>(p.records), p.seconds);
  } else {
    std::snprintf(text, sizeof text, "read %s: %lld records so far, %.1f MB in %.1f s\n",
                  p.file.c_str(), static_cast<long long>(p.records),
                  static_cast<double>(p.bytes) / (1024.0 * 1024.0), p.seconds);
  }
  return text;
}

//! Parses each of `texts` with `parse` into `out`; prints the first problem and returns false.
template <typename Term>
bool ParseTerms(const std::vector<std::string>& texts, Result<Term> (*parse)(std::string_view),
                std::string_view option, std::vector<Term>& out) {
  for (const std::string& text : texts) {
    auto term = parse(text);
    if (!term) {
      Err("databox ingest: " + std::string(option) + ": " + term.error().message + "\n");
      return false;
    }
    out.push_back(std::move(*term));
  }
  return true;
}

//! The request the arguments describe; prints the problem and returns nullopt when they are bad.
std::optional<load::IngestRequest> RequestOf(const IngestArgs& args) {
  load::IngestRequest request;
  for (const std::string& file : args.files) request.files.emplace_back(file);
  request.table = args.table;
  if (!args.format.empty()) request.format = load::ParseIngestFormat(args.format);
  request.disposition = ParseWriteDisposition(args.disposition).value_or(WriteDisposition::kAppend);
  request.primary_key = args.primary_key;
  if (!args.merge_mode.empty()) {
    request.merge_mode = args.merge_mode == "merge-on-read" ? registry::MergeMode::kMergeOnRead
                                                            : registry::MergeMode::kCopyOnWrite;
  }
  if (!ParseTerms(args.partition, registry::ParsePartitionTerm, "--partition", request.partition) ||
      !ParseTerms(args.sort, registry::ParseSortTerm, "--sort", request.sort)) {
    return std::nullopt;
  }
  request.on_progress = [](const load::IngestProgress& p) { Err(ProgressLine(p)); };
  if (auto checked = load::CheckIngestRequest(request); !checked) {
    Err("databox ingest: " + checked.error().message + "\n");
    return std::nullopt;
  }
  return request;
}

ExitCode Ingest(const GlobalOptions& global, const IngestArgs& args) {
  auto request = RequestOf(args);
  if (!request) return ExitCode::kUsage;
  auto session = OpenSession(global, "ingest", load::WorkspaceUse::kShared);
  if (!session) return ExitCode::kUsage;
  InstallInterruptHandlers();
  // The run history records an ingest like `databox run` of a source named <name>.
  const std::string name =
      load::ParseIngestTable(request->table).value_or(std::pair{args.table, ""}).first;
  auto outcome = refresh::RunSingleLoad(
      *session->workspace, "ingest", name,
      [&](const refresh::ProgressCallback&) {
        return load::IngestFiles(*session->workspace, *request);
      },
      nullptr);
  if (!outcome.history_problem.empty()) Err("databox ingest: " + outcome.history_problem + "\n");
  const auto& loaded = outcome.loaded;
  const std::string& views_error = outcome.views_error;
  if (!loaded) {
    const bool unknown = loaded.error().kind == ErrorKind::kCommitStateUnknown;
    Err("databox ingest " + args.table + ": " + loaded.error().ToString() +
        (unknown ? "" : "; nothing was committed") + "\n");
    return outcome.record.exit_code;
  }
  if (loaded->tables.empty()) {
    Out(args.table + ": no rows in the input, nothing written\n");
    return ExitCode::kOk;
  }
  Out(args.table + " loaded, load id " + loaded->load_id + "\n");
  PrintLoadedTables(*loaded);
  if (!views_error.empty()) {
    Err("databox ingest: " + views_error + "\n");
    return ExitCode::kRunFailed;
  }
  return ExitCode::kOk;
}

}  // namespace

Command IngestCommand() {
  return Command{
      "ingest", "Load NDJSON, CSV or Parquet files into a raw table",
      "Loads FILE... into the raw table raw_<name>.<table> (created by the first ingest) and\n"
      "commits it as `databox run` commits a source: the table's new snapshot and this load's\n"
      "rows of raw_<name>._dlt_loads and raw_<name>._dlt_load_status in one catalog\n"
      "transaction, every row carrying the printed load id in _dlt_load_id. The format is\n"
      "told by each file's name (.ndjson, .jsonl, .json, .csv, .parquet, each optionally\n"
      "followed by .gz or .zst) unless --format gives it. NDJSON records go through the\n"
      "dlt-compatible normalizer (nested lists become child tables raw_<name>.<table>__<field>);\n"
      "CSV (with DuckDB's type detection) and Parquet rows are read by DuckDB and, for\n"
      "append and replace, written straight to data files with the types DuckDB reads and\n"
      "the normalizer's snake_case column names (nested Parquet columns, a column the table\n"
      "has with another type, and merge go through the normalizer). A malformed line fails\n"
      "the ingest naming the file and line, and nothing is committed. Input without a row\n"
      "(an empty NDJSON file) writes nothing: no table, no load. Exit 0 loaded (or nothing to\n"
      "load), 1 failed (nothing committed), 2 bad usage (unknown\n"
      "format, missing file, bad --table, merge without --primary-key, a --partition or\n"
      "--sort term that does not parse).",
      [](CLI::App& app) -> Runner {
        auto args = std::make_shared<IngestArgs>();
        app.add_option("FILE", args->files, "input files, loaded in the order given")->required();
        app.add_option("--table", args->table, "target table, raw_<name>.<table>")->required();
        app.add_option("--format", args->format,
                       "input format of every file, instead of telling it by name")
            ->check(CLI::IsMember({"ndjson", "jsonl", "json", "csv", "parquet"}));
        app.add_option("--write-disposition", args->disposition,
                       "append (default), replace (the table's rows become these files') or "
                       "merge (rows replace those with the same --primary-key)")
            ->check(CLI::IsMember(NameList(kWriteDispositionNames)));
        app.add_option("--primary-key", args->primary_key,
                       "key column(s) of the table (comma-separated); required by merge")
            ->delimiter(',');
        app.add_option("--merge-mode", args->merge_mode,
                       "how a merge removes the rows it replaces: copy-on-write or merge-on-read "
                       "(position delete files); default: the table's write.merge.mode")
            ->check(CLI::IsMember({"copy-on-write", "merge-on-read"}));
        app.add_option("--partition", args->partition,
                       "partition the new table by a column or an Iceberg transform of one: "
                       "region, day(observed_at), bucket[16](id), truncate[4](name) (repeat or "
                       "comma-separate); on a table that exists with another spec it adds a new "
                       "spec (files written before keep theirs); without it a table keeps its spec")
            ->delimiter(',');
        app.add_option("--sort", args->sort,
                       "sort order of the table (a changed one is added as a new order): 'column "
                       "[asc|desc] [nulls first|last]' "
                       "(repeat or comma-separate)")
            ->delimiter(',');
        return [args](const GlobalOptions& global) { return Ingest(global, *args); };
      }};
}

}  // namespace databox::cli
