#include "load/file_ingest.h"

#include <chrono>
#include <regex>

#include "common/interrupt.h"
#include "common/redact.h"
#include "iceberg/table.h"
#include "load/direct_ingest.h"
#include "load/existing_tables.h"
#include "load/load_database.h"
#include "load/load_id.h"
#include "load/load_package.h"
#include "load/load_turn.h"
#include "load/merge_dedup.h"
#include "load/normalized_tables.h"
#include "load/plan_and_commit.h"
#include "load/resource_hints.h"
#include "load/staging.h"
#include "load/stream_ingest.h"
#include "load/streamed_files.h"
#include "load/table_reads.h"

namespace databox::load {
namespace {

namespace fs = std::filesystem;

//! Namespace and table names: lower-case snake_case, as source and resource names.
bool IsSnakeName(const std::string& name) {
  static const std::regex kName("^[a-z][a-z0-9]*(_[a-z0-9]+)*$");
  return std::regex_match(name, kName);
}

//! The source and resource an ingest loads as: `name` with one resource `table`.
registry::Source IngestSource(const std::string& name, const std::string& table,
                              const IngestRequest& request) {
  registry::Resource resource;
  resource.name = table;
  resource.write_disposition = request.disposition;
  resource.primary_key = request.primary_key;
  resource.partition = request.partition;
  resource.sort = request.sort;
  resource.merge_mode = request.merge_mode;
  registry::Source source;
  source.name = name;
  source.resources.push_back(std::move(resource));
  return source;
}

//! One ingest in progress: its package, staging database and normalized tables.
class FileIngest {
 public:
  FileIngest(Workspace& workspace, const IngestRequest& request, const registry::Source& source,
             LoadPackage& package)
      : ws_(workspace),
        request_(request),
        source_(source),
        resource_(source.resources.front()),
        package_(package) {}

  Result<SourceLoadResult> Run();

 private:
  Status ReadFile(std::size_t index);
  //! Append and replace of CSV and Parquet files whose rows fit a flat table: written straight
  //! from DuckDB (direct_ingest.h). nullopt when the files need the normalizer.
  Result<std::optional<WrittenTable>> WriteDirect();
  Status Add(normalize::TableBatch batch);
  //! Where the streamed data files of the raw table `schema` names go.
  Result<TableTarget> TargetOf(const normalize::TableSchema& schema) {
    return StreamTarget(ws_, reads_, source_, schema);
  }
  void Report(const std::string& file, bool commit) const {
    if (!request_.on_progress) return;
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    const int64_t held = streamed_ ? streamed_->held_rows() : staged_rows_;
    request_.on_progress(IngestProgress{file, records_, bytes_, seconds, commit, held});
  }

  Workspace& ws_;
  TableReads reads_{ws_.catalog()};  //!< each table read once by this ingest (table_reads.h)
  const IngestRequest& request_;
  const registry::Source& source_;
  const registry::Resource& resource_;
  LoadPackage& package_;
  const std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::unique_ptr<LoadDatabase> db_;         //!< staging, from normalization to the commit
  std::unique_ptr<StreamedFiles> streamed_;  //!< append and replace: the data files' writers
  int64_t staged_rows_ = 0;                  //!< merge: rows staged in db_
  normalize::ResourceHints hints_;
  //! Tables as the loads and files before left them.
  std::vector<normalize::TableSchema> schemas_;
  int64_t records_ = 0;
  int64_t bytes_ = 0;
};

Status FileIngest::ReadFile(std::size_t index) {
  const fs::path& file = request_.files[index];
  DATABOX_ASSIGN_OR_RETURN(InputKind kind, InputKindOf(file, request_.format));
  DATABOX_ASSIGN_OR_RETURN(fs::path ndjson, NdjsonOf(file, kind, package_.extract_dir(), index));
  normalize::NormalizerOptions normalizer;
  normalizer.known_tables = schemas_;
  normalizer.records_before = static_cast<std::size_t>(records_);
  NdjsonStreamOptions options;
  options.workers = request_.workers;
  options.flush_rows = request_.batch_rows;
  options.label = kind.format == IngestFormat::kNdjson ? file.string()
                                                       : file.string() + " (row as NDJSON line)";
  DATABOX_ASSIGN_OR_RETURN(
      auto stream,
      NdjsonBatchStream::Start(ndjson.string(), hints_, package_.load_id(), normalizer, options));
  while (true) {
    DATABOX_ASSIGN_OR_RETURN(std::vector<normalize::TableBatch> batches, stream->Next());
    if (batches.empty()) break;
    for (normalize::TableBatch& batch : batches) DATABOX_RETURN_IF_ERROR(Add(std::move(batch)));
  }
  schemas_ = stream->Schemas();
  const NdjsonStreamStats stats = stream->stats();
  records_ += stats.records;
  bytes_ += stats.bytes;
  std::error_code ignored;
  if (ndjson != file) fs::remove(ndjson, ignored);  // scratch files can be large
  fs::remove(package_.extract_dir() / ("input-" + std::to_string(index) + ".decompressed"),
             ignored);
  Report(file.string(), false);
  return Ok();
}

Result<std::optional<WrittenTable>> FileIngest::WriteDirect() {
  std::vector<InputKind> kinds;
  for (const fs::path& file : request_.files) {
    DATABOX_ASSIGN_OR_RETURN(InputKind kind, InputKindOf(file, request_.format));
    if (kind.format == IngestFormat::kNdjson) return std::nullopt;
    kinds.push_back(kind);
  }
  DATABOX_ASSIGN_OR_RETURN(auto conn, duck::Connection::Open(db_->database()));
  // Row order inside the data files does not matter: DuckDB's threads each write row groups.
  DATABOX_RETURN_IF_ERROR(conn.Execute("SET preserve_insertion_order = false"));
  DATABOX_RETURN_IF_ERROR(RegisterDltIdFunction(conn));
  std::vector<DirectInput> inputs;
  std::vector<fs::path> scratch;  // decompressed inputs, removed at the end
  auto clean = [&] {
    std::error_code ignored;
    for (const fs::path& path : scratch) fs::remove(path, ignored);
  };
  for (std::size_t i = 0; i < request_.files.size(); ++i) {
    DATABOX_RETURN_IF_ERROR(CheckInterrupted("ingest into " + request_.table));
    const fs::path& file = request_.files[i];
    auto plain = PlainOf(file, kinds[i], package_.extract_dir(), i);
    if (!plain) {
      clean();
      return std::unexpected(plain.error());
    }
    if (*plain != file) scratch.push_back(*plain);
    auto input = DescribeDirectInput(conn, file, *plain, kinds[i].format, hints_.table_name,
                                     hints_.resource, package_.load_id());
    if (!input || !*input) {
      clean();
      if (!input) return std::unexpected(input.error());
      return std::nullopt;
    }
    inputs.push_back(std::move(**input));
  }
  auto written = WriteDirectInputs(
      conn, *ws_.file_io(), inputs,
      [this](const normalize::TableSchema& schema) { return TargetOf(schema); },
      [&](std::size_t index, int64_t rows) {
        records_ += rows;
        std::error_code ignored;
        const auto size = fs::file_size(request_.files[index], ignored);
        bytes_ += ignored ? 0 : static_cast<int64_t>(size);
        Report(request_.files[index].string(), false);
      });
  clean();
  return written;
}

Status FileIngest::Add(normalize::TableBatch batch) {
  if (streamed_) return streamed_->Push(std::move(batch));
  staged_rows_ += static_cast<int64_t>(batch.num_rows);
  return db_->tables().Add(resource_, std::move(batch));
}

Result<SourceLoadResult> FileIngest::Run() {
  DATABOX_ASSIGN_OR_RETURN(hints_, HintsFor(source_, resource_));
  DATABOX_ASSIGN_OR_RETURN(db_, LoadDatabase::Open(ws_));
  if (resource_.write_disposition != registry::WriteDisposition::kMerge) {
    streamed_ = std::make_unique<StreamedFiles>(
        db_->database(), *ws_.file_io(),
        [this](const normalize::TableSchema& schema) { return TargetOf(schema); },
        StreamedFiles::Options{});
  }
  std::optional<WrittenTable> direct;
  if (streamed_) {
    DATABOX_ASSIGN_OR_RETURN(direct, WriteDirect());
  }
  if (!direct) {
    DATABOX_ASSIGN_OR_RETURN(schemas_, ExistingTables(reads_, source_.Namespace(), hints_));
  }
  for (std::size_t i = 0; !direct && i < request_.files.size(); ++i) {
    DATABOX_RETURN_IF_ERROR(CheckInterrupted("ingest into " + request_.table));
    DATABOX_RETURN_IF_ERROR(ReadFile(i));
  }
  WrittenTables written;
  if (streamed_) {
    DATABOX_ASSIGN_OR_RETURN(written.tables, streamed_->Finish());
    written.resource = &resource_;
  }
  if (direct) written.tables.emplace(direct->schema.name, std::move(*direct));
  SourceLoadResult result;
  result.source = source_.name;
  result.load_id = package_.load_id();
  if (records_ == 0 && written.tables.empty()) {
    // Nothing to write: no table is created and no load is recorded in _dlt_loads.
    result.notes.push_back("no rows in the input, nothing written");
    return result;
  }
  std::vector<WrittenTables> groups;
  groups.push_back(std::move(written));
  DATABOX_RETURN_IF_ERROR(
      DeduplicateMergeBatches(db_->conn(), source_, {&resource_}, db_->tables()));
  DATABOX_RETURN_IF_ERROR(CheckInterrupted("ingest into " + request_.table));
  DATABOX_ASSIGN_OR_RETURN(CommittedLoad committed,
                           PlanAndCommit(
                               ws_, reads_, db_->conn(), source_, db_->tables(), package_.load_id(),
                               [&] { Report("", true); }, std::move(groups)));
  result.tables = std::move(committed.tables);
  result.rows_loaded = committed.rows_loaded;
  result.notes.push_back(std::to_string(records_) + " records read from " +
                         std::to_string(request_.files.size()) + " file(s)");
  return result;
}

}  // namespace

Result<std::pair<std::string, std::string>> ParseIngestTable(const std::string& table) {
  const auto dot = table.find('.');
  const std::string usage = "--table wants raw_<name>.<table> (lower-case snake_case names";
  if (dot == std::string::npos || !table.starts_with(registry::kRawNamespacePrefix)) {
    return MakeError(ErrorKind::kConfig,
                     "'" + table + "' is not a raw table: " + usage + ", e.g. raw_events.clicks)");
  }
  const std::size_t prefix = registry::kRawNamespacePrefix.size();
  std::string name = table.substr(prefix, dot - prefix);
  std::string leaf = table.substr(dot + 1);
  if (!IsSnakeName(name) || !IsSnakeName(leaf)) {
    return MakeError(ErrorKind::kConfig, "'" + table + "' is not a valid table name: " + usage +
                                             ": a letter, then letters, digits and single _)");
  }
  return std::pair{std::move(name), std::move(leaf)};
}

Status CheckIngestRequest(const IngestRequest& request) {
  DATABOX_ASSIGN_OR_RETURN(auto parsed, ParseIngestTable(request.table));
  (void)parsed;
  if (request.files.empty()) return MakeError(ErrorKind::kConfig, "no input file given");
  for (const fs::path& file : request.files) {
    DATABOX_ASSIGN_OR_RETURN(InputKind kind, InputKindOf(file, request.format));
    (void)kind;
    std::error_code ec;
    if (!fs::is_regular_file(file, ec)) {
      return MakeError(ErrorKind::kNotFound,
                       "input file " + file.string() + " does not exist or is not a file");
    }
  }
  const bool merge = request.disposition == registry::WriteDisposition::kMerge;
  if (merge && request.primary_key.empty()) {
    return MakeError(ErrorKind::kConfig,
                     "--write-disposition merge needs --primary-key COLUMN[,COLUMN...]: the rows "
                     "of a merge replace the rows with the same key");
  }
  for (const std::string& column : request.primary_key) {
    if (!IsSnakeName(column)) {
      return MakeError(ErrorKind::kConfig, "primary key column '" + column +
                                               "' is not a snake_case column name (as the "
                                               "normalizer names columns)");
    }
  }
  return Ok();
}

//! kConfig when a merge cannot use `request.primary_key` on the existing table: it was created
//! without a key (its columns are optional, so none can become one), or with another key.
Status CheckMergeKey(Workspace& workspace, const IngestRequest& request,
                     const iceberg::TableIdentifier& ident) {
  if (request.disposition != registry::WriteDisposition::kMerge) return Ok();
  auto loaded = workspace.catalog().LoadTable(ident);
  if (!loaded && loaded.error().kind == ErrorKind::kNotFound) return Ok();
  if (!loaded) return std::unexpected(loaded.error());
  const iceberg::Schema* schema = loaded->metadata.CurrentSchema();
  if (schema == nullptr) return Ok();
  std::vector<std::string> key;
  for (int32_t id : schema->identifier_field_ids()) {
    const auto* field = schema->FindFieldById(id);
    key.push_back(field == nullptr ? std::to_string(id) : field->name);
  }
  auto joined = [](const std::vector<std::string>& names) {
    std::string out;
    for (const auto& n : names) out += (out.empty() ? "" : ",") + n;
    return out;
  };
  if (key.empty()) {
    return MakeError(ErrorKind::kConfig,
                     "table " + ident.ToString() +
                         " was created without a primary key, so rows cannot be merged into it "
                         "by key: append to it, or merge into a new table (the first merge with "
                         "--primary-key creates it with that key)");
  }
  if (key != request.primary_key) {
    return MakeError(ErrorKind::kConfig, "table " + ident.ToString() + " has the primary key " +
                                             joined(key) + ", not " + joined(request.primary_key) +
                                             ": merge with --primary-key " + joined(key) + "");
  }
  return Ok();
}

Result<SourceLoadResult> IngestFiles(Workspace& workspace, const IngestRequest& request) {
  DATABOX_RETURN_IF_ERROR(CheckIngestRequest(request));
  DATABOX_ASSIGN_OR_RETURN(auto parsed, ParseIngestTable(request.table));
  DATABOX_RETURN_IF_ERROR(CheckMergeKey(
      workspace, request,
      iceberg::TableIdentifier{{registry::RawNamespace(parsed.first)}, parsed.second}));
  const registry::Source source = IngestSource(parsed.first, parsed.second, request);
  // Held until the ingest ends: no load of a source of the same name runs meanwhile.
  DATABOX_ASSIGN_OR_RETURN(const LoadTurn turn, TakeLoadTurn(workspace, source.name));
  const std::string load_id = request.load_id.value_or(NewLoadId());
  DATABOX_ASSIGN_OR_RETURN(LoadPackage package,
                           LoadPackage::Create(workspace.loads_dir(), source.name, load_id));
  FileIngest ingest(workspace, request, source, package);
  auto result = ingest.Run();
  if (!result) {
    (void)package.SetState(PackageState::kFailed, Redact(result.error().message));
    return result;
  }
  DATABOX_RETURN_IF_ERROR(package.SetState(PackageState::kCommitted));
  if (turn.settled.interrupted > 0) {
    result->notes.push_back(std::to_string(turn.settled.interrupted) +
                            " load package(s) of an earlier, interrupted load marked failed");
  }
  return result;
}

}  // namespace databox::load
