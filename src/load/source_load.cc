#include "load/source_load.h"

#include <chrono>
#include <map>
#include <memory>
#include <set>

#include "catalog/rest/rest_catalog.h"
#include "common/failpoint.h"
#include "common/redact.h"
#include "duck/database.h"
#include "duck/quote.h"
#include "fileio/location.h"
#include "iceberg/commit.h"
#include "iceberg/data_files.h"
#include "iceberg/merge.h"
#include "iceberg/schema_evolution.h"
#include "iceberg/table_operations.h"
#include "iceberg/table_scan.h"
#include "iceberg/table_update.h"
#include "load/batch_scan.h"
#include "load/load_id.h"
#include "load/load_package.h"
#include "load/source_lock.h"
#include "load/staging.h"
#include "load/system_tables.h"
#include "normalize/normalizer.h"
#include "source/avonet.h"
#include "source/client_factory.h"
#include "source/extractor.h"
#include "source/file_source.h"

namespace databox::load {
namespace {

using duck::QuoteIdentifier;

normalize::WriteDisposition ToNormalize(registry::WriteDisposition d) {
  switch (d) {
    case registry::WriteDisposition::kAppend:
      return normalize::WriteDisposition::kAppend;
    case registry::WriteDisposition::kReplace:
      return normalize::WriteDisposition::kReplace;
    case registry::WriteDisposition::kMerge:
      return normalize::WriteDisposition::kMerge;
  }
  return normalize::WriteDisposition::kAppend;
}

//! The run's report of RDB rows the parser skipped for having fewer fields than the header
//! (docs/sources.md): they are not loaded, so the count must not stay silent.
std::string ShortRowsNote(const registry::Source& source, const registry::Resource& resource,
                          const source::ResourceStats& stats) {
  std::string note = source::ResourceLabel(source, resource) + ": skipped " +
                     std::to_string(stats.short_rows) +
                     " RDB row(s) with fewer fields than the header";
  if (!stats.first_short_row.empty()) note += " (first at " + stats.first_short_row + ")";
  return note;
}

Result<normalize::ResourceHints> HintsFor(const registry::Source& source,
                                          const registry::Resource& resource) {
  normalize::ResourceHints hints;
  hints.resource = resource.name;
  hints.table_name = resource.name;
  hints.write_disposition = ToNormalize(resource.write_disposition);
  hints.primary_key = resource.primary_key;
  for (const auto& [name, hint] : resource.columns) {
    normalize::ColumnHint column;
    column.name = name;
    if (!hint.type.empty()) {
      column.data_type = normalize::ParseDataType(hint.type);
      if (!column.data_type) {
        return MakeError(ErrorKind::kConfig, source::ResourceLabel(source, resource) + ": column " +
                                                 name + " has unknown type " + hint.type);
      }
    }
    column.nullable = hint.nullable;
    hints.columns.push_back(std::move(column));
  }
  return hints;
}

//! One source load in progress; owns the staging database and the package.
class SourceLoad {
 public:
  SourceLoad(Workspace& workspace, const registry::Source& source, const SourceLoadOptions& options)
      : ws_(workspace), source_(source), options_(options) {}

  Result<SourceLoadResult> Run();

 private:
  std::string Label(const registry::Resource& r) const { return source::ResourceLabel(source_, r); }
  void Report(LoadPhase phase, const std::string& resource, int64_t rows = 0) {
    if (options_.on_progress) {
      options_.on_progress(LoadProgress{source_.name, phase, resource, result_.requests, rows});
    }
  }
  Status Extract();
  Status NormalizeAndStage();
  //! Feeds every record of one resource to a sink.
  using RecordFeed = std::function<Status(const source::RecordSink&)>;
  Status NormalizeResource(const registry::Resource& resource, const RecordFeed& feed);
  Status DeduplicateMergeBatches();
  //! Plans the change of one raw table whose normalized rows `relation` reads; `rows` is their
  //! count when known without a query.
  Status PlanTable(const std::string& table_name, const normalize::TableSchema& schema,
                   const std::string& relation, std::optional<int64_t> rows);
  Status PlanSystemTables();
  Result<std::unique_ptr<iceberg::SnapshotOperation>> NewTableAppend(
      const iceberg::TableIdentifier& ident, const iceberg::Schema& schema,
      const std::string& select_sql);
  Status Commit();
  //! Whether _dlt_load_status already holds a snapshot of this load id: a resumed package whose
  //! commit landed before the process that made it died (its status row commits last or with
  //! the data, so the whole load is in).
  Result<bool> StatusCommitted();
  //! Commits changes_ through a REST catalog, which cannot create tables in a transaction.
  Status CommitRest();
  iceberg::SnapshotChange Change() const {
    iceberg::SnapshotChange change;
    change.load_id = result_.load_id;
    return change;
  }
  iceberg::TableIdentifier Ident(const std::string& table) const {
    return iceberg::TableIdentifier{{RawNamespace(source_)}, table};
  }

  Workspace& ws_;
  const registry::Source& source_;
  const SourceLoadOptions& options_;
  std::optional<LoadPackage> package_;
  std::optional<source::AvonetExtract> file_extract_;  //!< kind = file: the validated rows
  std::optional<duck::Database> db_;
  std::optional<duck::Connection> conn_;
  //! Tables of merge resources: staged in DuckDB, where deduplication and the merge run SQL.
  std::optional<StagingArea> staging_;
  //! Tables of append and replace resources: normalized batches kept in memory and written to
  //! Parquet straight from there (databox_scan), no staging table in between.
  std::map<std::string, BufferedTable> buffered_;
  //! Staged table -> the resource that produced it (root and child tables).
  std::map<std::string, const registry::Resource*> table_resource_;
  //! Merge root tables after deduplication: table -> relation holding the rows to upsert.
  std::map<std::string, std::string> merge_rows_;
  std::vector<std::unique_ptr<iceberg::TableChange>> changes_;
  std::vector<std::pair<iceberg::SnapshotOperation*, std::size_t>> ops_;  //!< op, outcome index
  std::set<const iceberg::TableChange*> creates_;  //!< changes that create their table
  SourceLoadResult result_;
};

Status SourceLoad::Extract() {
  if (source_.kind == registry::SourceKind::kFile) {
    Report(LoadPhase::kExtract, source_.name);
    source::AvonetInput input;
    input.local_file = options_.file;
    input.work_dir = package_->dir();
    std::optional<http::HttpClient> client;
    if (!input.local_file) {
      DATABOX_ASSIGN_OR_RETURN(auto made, source::MakeFileClient(ws_.registry().project, source_));
      client.emplace(std::move(made));
      input.client = &*client;
    }
    DATABOX_ASSIGN_OR_RETURN(
        auto extracted,
        source::ExtractAvonet(source_, input, source::MakeLoadContext(result_.load_id)));
    file_extract_.emplace(std::move(extracted));
    return Ok();
  }
  DATABOX_ASSIGN_OR_RETURN(auto client, source::MakeSourceClient(ws_.registry().project, source_));
  DATABOX_ASSIGN_OR_RETURN(
      auto extractor,
      source::Extractor::Make(source_, &client, source::MakeLoadContext(result_.load_id)));
  for (const registry::Resource& resource : source_.resources) {
    if (!resource.enabled) continue;
    Report(LoadPhase::kExtract, resource.name);
    DATABOX_ASSIGN_OR_RETURN(auto stats,
                             extractor.ExtractToFolder(resource, package_->extract_dir()));
    result_.requests += stats.requests;
    for (const auto& skipped : stats.skipped) {
      result_.notes.push_back(Label(resource) + ": skipped " + skipped.url + " (HTTP " +
                              std::to_string(skipped.status) + ")");
    }
  }
  return Ok();
}

Status SourceLoad::NormalizeResource(const registry::Resource& resource, const RecordFeed& feed) {
  DATABOX_ASSIGN_OR_RETURN(auto hints, HintsFor(source_, resource));
  DATABOX_ASSIGN_OR_RETURN(auto normalizer,
                           normalize::Normalizer::Make(std::move(hints), result_.load_id));
  const bool merge = resource.write_disposition == registry::WriteDisposition::kMerge;
  auto stage = [&]() -> Status {
    for (normalize::TableBatch& batch : normalizer->Flush()) {
      table_resource_[batch.schema.name] = &resource;
      if (merge) {
        DATABOX_RETURN_IF_ERROR(staging_->Append(batch));
      } else {
        const std::string name = batch.schema.name;
        buffered_[name].Add(std::move(batch));
      }
    }
    return Ok();
  };
  int64_t records = 0;
  auto sink = [&](nlohmann::ordered_json record) -> Status {
    if (auto added = normalizer->Add(record); !added) {
      return std::unexpected(
          added.error().WithContext(Label(resource) + ", record " + std::to_string(records + 1)));
    }
    ++records;
    if (normalizer->BufferedRows() >= options_.flush_rows) return stage();
    return Ok();
  };
  DATABOX_RETURN_IF_ERROR(feed(sink));
  DATABOX_RETURN_IF_ERROR(stage());
  Report(LoadPhase::kNormalize, resource.name, records);
  return Ok();
}

Status SourceLoad::NormalizeAndStage() {
  DATABOX_ASSIGN_OR_RETURN(auto db, duck::Database::Open(""));
  db_.emplace(std::move(db));
  DATABOX_ASSIGN_OR_RETURN(auto conn, duck::Connection::Open(*db_));
  conn_.emplace(std::move(conn));
  // Merges and child-table deletes read the tables' current files through DuckDB.
  DATABOX_RETURN_IF_ERROR(ws_.PrepareDuckDbReads(*conn_));
  DATABOX_ASSIGN_OR_RETURN(auto staging, StagingArea::Make(&*conn_, "stage"));
  staging_.emplace(std::move(staging));
  DATABOX_RETURN_IF_ERROR(duck::RegisterChunkScan(*conn_));
  for (const registry::Resource& resource : source_.resources) {
    if (!resource.enabled) continue;
    RecordFeed feed;
    if (file_extract_) {
      if (resource.name != file_extract_->table) continue;
      feed = [&](const source::RecordSink& sink) -> Status {
        for (auto& record : file_extract_->records)
          DATABOX_RETURN_IF_ERROR(sink(std::move(record)));
        return Ok();
      };
    } else {
      feed = [&](const source::RecordSink& sink) -> Status {
        DATABOX_ASSIGN_OR_RETURN(auto stats, source::RecordsFromFolder(
                                                 source_, resource, package_->extract_dir(), sink));
        if (stats.short_rows > 0) result_.notes.push_back(ShortRowsNote(source_, resource, stats));
        return Ok();
      };
    }
    DATABOX_RETURN_IF_ERROR(NormalizeResource(resource, feed));
  }
  return DeduplicateMergeBatches();
}

// A merge batch must not hold a key twice: keep the last (or first) record per key, or fail,
// as the resource's merge_duplicates says; child rows of dropped records go with them.
Status SourceLoad::DeduplicateMergeBatches() {
  for (const registry::Resource& resource : source_.resources) {
    if (!resource.enabled || resource.write_disposition != registry::WriteDisposition::kMerge) {
      continue;
    }
    auto staged = staging_->tables().find(resource.name);
    if (staged == staging_->tables().end()) continue;
    const std::string keys = duck::QuoteIdentifierList(resource.primary_key);
    const std::string relation = staged->second.relation;
    if (resource.merge_duplicates == registry::DuplicatePolicy::kReject) {
      DATABOX_ASSIGN_OR_RETURN(
          auto dups, conn_->Query("SELECT count(*) FROM (SELECT " + keys + " FROM " + relation +
                                  " GROUP BY ALL HAVING count(*) > 1)"));
      DATABOX_ASSIGN_OR_RETURN(int64_t count, dups.GetInt64(0, 0));
      if (count > 0) {
        return MakeError(ErrorKind::kData,
                         Label(resource) + ": " + std::to_string(count) +
                             " primary key value(s) occur more than once in this batch and "
                             "merge_duplicates = \"reject\"; nothing was committed");
      }
      merge_rows_[resource.name] = relation;
      continue;
    }
    const char* order =
        resource.merge_duplicates == registry::DuplicatePolicy::kFirstWins ? "ASC" : "DESC";
    const std::string dedup =
        QuoteIdentifier("stage") + "." + QuoteIdentifier(resource.name + "__dedup");
    DATABOX_RETURN_IF_ERROR(conn_->Execute("CREATE TABLE " + dedup +
                                           " AS SELECT * EXCLUDE (databox_rn_) FROM (SELECT *, "
                                           "row_number() OVER (PARTITION BY " +
                                           keys + " ORDER BY rowid " + order +
                                           ") AS databox_rn_ FROM " + relation +
                                           ") WHERE databox_rn_ = 1"));
    merge_rows_[resource.name] = dedup;
    for (const auto& [table, owner] : table_resource_) {
      if (owner != &resource || table == resource.name) continue;
      DATABOX_RETURN_IF_ERROR(
          conn_->Execute("DELETE FROM " + staging_->tables().at(table).relation +
                         " WHERE _dlt_root_id NOT IN (SELECT _dlt_id FROM " + dedup + ")"));
    }
  }
  return Ok();
}

Result<std::unique_ptr<iceberg::SnapshotOperation>> SourceLoad::NewTableAppend(
    const iceberg::TableIdentifier& ident, const iceberg::Schema& schema,
    const std::string& select_sql) {
  iceberg::TableMetadata metadata;
  if (auto* rest = dynamic_cast<catalog::rest::RestCatalog*>(&ws_.catalog())) {
    // The REST catalog chooses the location and assigns the ids: stage the create, write the
    // files under the staged metadata, then commit create + first snapshot with assert-create.
    DATABOX_ASSIGN_OR_RETURN(
        auto staged, rest->StageCreateTable(ident, schema, iceberg::PartitionSpec::Unpartitioned(),
                                            iceberg::SortOrder::Unsorted(), {}, std::nullopt));
    metadata = std::move(staged.metadata);
  } else {
    const std::string location = fileio::JoinLocation(ws_.registry().project.warehouse.location,
                                                      ident.ns.front() + "/" + ident.name);
    DATABOX_ASSIGN_OR_RETURN(
        metadata, iceberg::NewTableMetadata(schema, iceberg::PartitionSpec::Unpartitioned(),
                                            iceberg::SortOrder::Unsorted(), location, {}));
  }
  DATABOX_ASSIGN_OR_RETURN(auto files,
                           iceberg::WriteDataFiles(*conn_, *ws_.file_io(), metadata, select_sql));
  auto op = iceberg::SnapshotOperation::Append(ident, ws_.file_io(), Change());
  op->CreateIfMissing(iceberg::CreateTableUpdates(metadata));
  op->AddFiles(std::move(files));
  creates_.insert(op.get());
  return op;
}

Status SourceLoad::PlanTable(const std::string& table_name, const normalize::TableSchema& schema,
                             const std::string& relation, std::optional<int64_t> known_rows) {
  const registry::Resource& resource = *table_resource_.at(table_name);
  const iceberg::TableIdentifier ident = Ident(table_name);
  DATABOX_ASSIGN_OR_RETURN(iceberg::Schema incoming, IcebergSchemaFor(schema));
  const bool is_root = table_name == resource.name;
  const bool merge = resource.write_disposition == registry::WriteDisposition::kMerge;
  const std::string rows_relation = merge && is_root ? merge_rows_.at(table_name) : relation;
  int64_t rows = 0;
  if (known_rows) {  // only buffered (append/replace) tables know their count
    rows = *known_rows;
  } else {
    DATABOX_ASSIGN_OR_RETURN(auto counted, conn_->Query("SELECT count(*) FROM " + rows_relation));
    DATABOX_ASSIGN_OR_RETURN(rows, counted.GetInt64(0, 0));
  }
  const std::string select_sql = "SELECT * FROM " + rows_relation;

  TableOutcome outcome;
  outcome.table = RawNamespace(source_) + "." + table_name;
  outcome.disposition = merge ? "merge"
                        : resource.write_disposition == registry::WriteDisposition::kReplace
                            ? "replace"
                            : "append";
  outcome.rows = rows;

  std::unique_ptr<iceberg::SnapshotOperation> op;
  DATABOX_ASSIGN_OR_RETURN(bool exists, ws_.catalog().TableExists(ident));
  if (!exists) {
    DATABOX_ASSIGN_OR_RETURN(op, NewTableAppend(ident, incoming, select_sql));
  } else {
    DATABOX_ASSIGN_OR_RETURN(auto table, iceberg::Table::Load(ws_.catalog(), ws_.file_io(), ident));
    // New columns are committed on their own first (optional columns only, no rows change),
    // so that the data files below are written with the evolved field ids.
    DATABOX_ASSIGN_OR_RETURN(auto merged, iceberg::UnionByName(table.schema(), incoming,
                                                               table.metadata().last_column_id));
    if (!merged.SameStructure(table.schema())) {
      iceberg::SchemaUpdate evolve(ident, incoming);
      DATABOX_RETURN_IF_ERROR(iceberg::CommitChange(ws_.catalog(), *ws_.file_io(), evolve));
      DATABOX_RETURN_IF_ERROR(table.Refresh());
    }
    iceberg::RowChangeOptions change_options;
    change_options.snapshot = Change();
    if (resource.merge_mode) {
      change_options.mode = *resource.merge_mode == registry::MergeMode::kMergeOnRead
                                ? iceberg::RowChangeMode::kMergeOnRead
                                : iceberg::RowChangeMode::kCopyOnWrite;
    }
    if (merge && is_root) {
      DATABOX_ASSIGN_OR_RETURN(op,
                               iceberg::PrepareMerge(*conn_, table, select_sql, change_options));
    } else if (merge) {
      // dlt's delete-insert for child tables: drop the children of every root row this load
      // replaces, then add the new children.
      const std::string root = resource.name;
      DATABOX_ASSIGN_OR_RETURN(bool root_exists, ws_.catalog().TableExists(Ident(root)));
      DATABOX_ASSIGN_OR_RETURN(auto files, iceberg::WriteDataFiles(*conn_, *ws_.file_io(),
                                                                   table.metadata(), select_sql));
      if (root_exists) {
        DATABOX_ASSIGN_OR_RETURN(auto root_table,
                                 iceberg::Table::Load(ws_.catalog(), ws_.file_io(), Ident(root)));
        DATABOX_ASSIGN_OR_RETURN(std::string root_rows, root_table.ReadSql());
        const std::string keys = duck::QuoteIdentifierList(resource.primary_key);
        const std::string predicate = "_dlt_root_id IN (SELECT _dlt_id FROM (" + root_rows +
                                      ") WHERE (" + keys + ") IN (SELECT (" + keys + ") FROM " +
                                      merge_rows_.at(root) + "))";
        DATABOX_ASSIGN_OR_RETURN(
            op, iceberg::PrepareDeleteWhere(*conn_, table, predicate, change_options));
      } else {
        op = table.NewAppend(Change());
      }
      op->AddFiles(std::move(files));
    } else {
      DATABOX_ASSIGN_OR_RETURN(auto files, iceberg::WriteDataFiles(*conn_, *ws_.file_io(),
                                                                   table.metadata(), select_sql));
      op = resource.write_disposition == registry::WriteDisposition::kReplace
               ? table.NewReplaceAll(Change())
               : table.NewAppend(Change());
      op->AddFiles(std::move(files));
    }
  }
  result_.rows_loaded += rows;
  result_.tables.push_back(std::move(outcome));
  ops_.emplace_back(op.get(), result_.tables.size() - 1);
  changes_.push_back(std::move(op));
  return Ok();
}

Status SourceLoad::PlanSystemTables() {
  const auto now = std::chrono::system_clock::now();
  for (const SystemTable& system :
       SystemTablesFor(result_.load_id, source_.name, result_.rows_loaded, now)) {
    const iceberg::TableIdentifier ident = Ident(system.name);
    DATABOX_RETURN_IF_ERROR(conn_->Execute(system.stage_sql));
    const std::string select_sql = "SELECT * FROM " + system.relation;
    std::unique_ptr<iceberg::SnapshotOperation> op;
    DATABOX_ASSIGN_OR_RETURN(bool exists, ws_.catalog().TableExists(ident));
    if (!exists) {
      DATABOX_ASSIGN_OR_RETURN(op, NewTableAppend(ident, system.schema, select_sql));
    } else {
      DATABOX_ASSIGN_OR_RETURN(auto table,
                               iceberg::Table::Load(ws_.catalog(), ws_.file_io(), ident));
      DATABOX_ASSIGN_OR_RETURN(auto files, iceberg::WriteDataFiles(*conn_, *ws_.file_io(),
                                                                   table.metadata(), select_sql));
      op = table.NewAppend(Change());
      op->AddFiles(std::move(files));
    }
    result_.tables.push_back(
        TableOutcome{RawNamespace(source_) + "." + system.name, "append", 1, {}});
    ops_.emplace_back(op.get(), result_.tables.size() - 1);
    changes_.push_back(std::move(op));
  }
  return Ok();
}

Status SourceLoad::Commit() {
  const iceberg::Namespace ns{RawNamespace(source_)};
  DATABOX_ASSIGN_OR_RETURN(bool ns_exists, ws_.catalog().NamespaceExists(ns));
  if (!ns_exists) {
    if (auto created = ws_.catalog().CreateNamespace(ns, {});
        !created && created.error().kind != ErrorKind::kAlreadyExists) {
      return created;
    }
  }
  // Tables in name order, whichever holds their rows.
  std::set<std::string> table_names;
  for (const auto& entry : staging_->tables()) table_names.insert(entry.first);
  for (const auto& entry : buffered_) table_names.insert(entry.first);
  for (const std::string& table_name : table_names) {
    if (!table_resource_.contains(table_name)) continue;
    Status planned = Ok();
    if (auto staged = staging_->tables().find(table_name); staged != staging_->tables().end()) {
      planned = PlanTable(table_name, staged->second.schema, staged->second.relation, std::nullopt);
    } else {
      const BufferedTable& buffered = buffered_.at(table_name);
      const duck::ChunkScan scan(buffered);
      planned = PlanTable(table_name, buffered.schema(), scan.relation(), buffered.rows());
    }
    if (!planned) {
      return std::unexpected(planned.error().WithContext("source " + source_.name + ", table " +
                                                         RawNamespace(source_) + "." + table_name));
    }
    Failpoint("after-data-files");
  }
  DATABOX_RETURN_IF_ERROR(PlanSystemTables());
  Failpoint("after-data-files");
  Report(LoadPhase::kCommit, "");
  if (dynamic_cast<catalog::rest::RestCatalog*>(&ws_.catalog()) != nullptr) {
    DATABOX_RETURN_IF_ERROR(CommitRest());
  } else {
    std::vector<iceberg::TableChange*> changes;
    for (auto& c : changes_) changes.push_back(c.get());
    DATABOX_ASSIGN_OR_RETURN(auto committed,
                             iceberg::CommitChanges(ws_.catalog(), *ws_.file_io(), changes));
    (void)committed;
  }
  for (auto& [op, index] : ops_) result_.tables[index].snapshot_id = op->snapshot_id();
  return Ok();
}

// A REST transaction cannot create a table: Polaris rejects a staged create in
// /transactions/commit and Iceberg's reference adapter loads every table of a transaction
// first. So each new data table is committed alone with its first data (stage-create +
// assert-create), then every change to an existing table in one transaction, then new system
// tables in order (_dlt_load_status last). A load that fails part-way never publishes its
// success row; the tables it created keep their (complete) first data.
Status SourceLoad::CommitRest() {
  auto is_system = [](const iceberg::TableChange* c) {
    return c->identifier().name == kLoadsTable || c->identifier().name == kLoadStatusTable;
  };
  auto commit_alone = [&](iceberg::TableChange* c) -> Status {
    DATABOX_ASSIGN_OR_RETURN(auto committed,
                             iceberg::CommitChange(ws_.catalog(), *ws_.file_io(), *c));
    (void)committed;
    return Ok();
  };
  std::vector<iceberg::TableChange*> existing;
  for (auto& c : changes_) {
    if (!creates_.contains(c.get())) {
      existing.push_back(c.get());
    } else if (!is_system(c.get())) {
      DATABOX_RETURN_IF_ERROR(commit_alone(c.get()));
    }
  }
  if (!existing.empty()) {
    DATABOX_ASSIGN_OR_RETURN(auto committed,
                             iceberg::CommitChanges(ws_.catalog(), *ws_.file_io(), existing));
    (void)committed;
  }
  for (auto& c : changes_) {
    if (creates_.contains(c.get()) && is_system(c.get())) {
      DATABOX_RETURN_IF_ERROR(commit_alone(c.get()));
    }
  }
  return Ok();
}

Result<bool> SourceLoad::StatusCommitted() {
  auto loaded = ws_.catalog().LoadTable(Ident(kLoadStatusTable));
  if (!loaded) {
    if (loaded.error().kind == ErrorKind::kNotFound) return false;
    return std::unexpected(loaded.error());
  }
  for (const iceberg::Snapshot& snapshot : loaded->metadata.snapshots) {
    auto it = snapshot.summary.find(iceberg::kLoadIdSummaryKey);
    if (it != snapshot.summary.end() && it->second == result_.load_id) return true;
  }
  return false;
}

Result<SourceLoadResult> SourceLoad::Run() {
  result_.source = source_.name;
  if (options_.resume) {
    DATABOX_ASSIGN_OR_RETURN(auto package,
                             LoadPackage::FindResumable(ws_.loads_dir(), source_.name));
    package_.emplace(std::move(package));
    result_.load_id = package_->load_id();
    DATABOX_ASSIGN_OR_RETURN(bool committed, StatusCommitted());
    if (committed) {
      // Committing again would add a second status row with this load id.
      DATABOX_RETURN_IF_ERROR(package_->SetState(PackageState::kCommitted));
      result_.notes.push_back("load " + result_.load_id +
                              " was already committed by a run that stopped before recording "
                              "it; nothing to resume");
      return result_;
    }
  } else {
    result_.load_id = options_.load_id.value_or(NewLoadId());
    DATABOX_ASSIGN_OR_RETURN(auto package,
                             LoadPackage::Create(ws_.loads_dir(), source_.name, result_.load_id));
    package_.emplace(std::move(package));
  }
  auto fail = [&](const Error& error) -> Result<SourceLoadResult> {
    (void)package_->SetState(PackageState::kFailed, Redact(error.message));
    return std::unexpected(error);
  };
  if (!options_.resume) {
    if (auto extracted = Extract(); !extracted) return fail(extracted.error());
    DATABOX_RETURN_IF_ERROR(package_->SetState(PackageState::kExtracted));
    Failpoint("after-extract");
  }
  if (auto staged = NormalizeAndStage(); !staged) return fail(staged.error());
  if (auto committed = Commit(); !committed) return fail(committed.error());
  Failpoint("before-package-committed");
  DATABOX_RETURN_IF_ERROR(package_->SetState(PackageState::kCommitted));
  return result_;
}

}  // namespace

std::string RawNamespace(const registry::Source& source) { return "raw_" + source.name; }

Result<SourceLoadResult> LoadSource(Workspace& workspace, const registry::Source& source,
                                    const SourceLoadOptions& options) {
  if (source.kind == registry::SourceKind::kTargeted) {
    return MakeError(ErrorKind::kConfig,
                     "source " + source.name +
                         ": targeted sources (image search) are not built yet; the target list "
                         "can be checked with `databox run " +
                         source.name + " --targets FILE`");
  }
  if (source.kind == registry::SourceKind::kFile && options.resume) {
    return MakeError(ErrorKind::kConfig,
                     "source " + source.name + ": --resume applies to HTTP sources; run it again");
  }
  // Held until the load ends: a second run of this source waits for nothing and fails here,
  // before it fetches, stages or commits anything.
  DATABOX_ASSIGN_OR_RETURN(const SourceLock lock,
                           SourceLock::Acquire(workspace.state_dir() / "locks", source.name));
  SourceLoad load(workspace, source, options);
  return load.Run();
}

}  // namespace databox::load
