#include "load/table_plan.h"

#include <chrono>

#include "duck/quote.h"
#include "iceberg/commit/commit.h"
#include "iceberg/data/data_files.h"
#include "iceberg/data/merge.h"
#include "iceberg/data/scan_sql.h"
#include "iceberg/metadata/table_update.h"
#include "iceberg/produce/snapshot_producer.h"
#include "iceberg/spec/schema_evolution.h"
#include "load/layout_evolution.h"
#include "load/staging.h"
#include "load/system_tables.h"
#include "load/table_layout.h"

namespace databox::load {
namespace {

bool IsMerge(const registry::Resource& resource) {
  return resource.write_disposition == registry::WriteDisposition::kMerge;
}

}  // namespace

iceberg::SnapshotChange TablePlanner::Change() const {
  iceberg::SnapshotChange change;
  change.load_id = load_id_;
  return change;
}

iceberg::TableIdentifier TablePlanner::Ident(const std::string& table) const {
  return iceberg::TableIdentifier{{source_.Namespace()}, table};
}

Result<std::optional<iceberg::Table>> TablePlanner::ReadTable(
    const iceberg::TableIdentifier& ident) {
  DATABOX_ASSIGN_OR_RETURN(auto read, reads_.Read(ident));
  if (!read) return std::nullopt;
  DATABOX_ASSIGN_OR_RETURN(auto table,
                           iceberg::Table::Of(ws_.catalog(), ws_.file_io(), ident, *read));
  return table;
}

std::unique_ptr<iceberg::SnapshotOperation> TablePlanner::FromRead(
    std::unique_ptr<iceberg::SnapshotOperation> op, const iceberg::Table& table) {
  op->StartFrom(table.loaded());
  return op;
}

void TablePlanner::Add(std::unique_ptr<iceberg::SnapshotOperation> op, TableOutcome outcome) {
  plan_.outcomes.push_back(std::move(outcome));
  plan_.ops.push_back(std::move(op));
}

Result<int64_t> TablePlanner::CountRows(const NormalizedTable& table) {
  DATABOX_ASSIGN_OR_RETURN(auto counted, conn_.Query("SELECT count(*) FROM " + table.relation));
  return counted.GetInt64(0, 0);
}

Status TablePlanner::PlanTable(const NormalizedTable& table) {
  const iceberg::TableIdentifier ident = Ident(table.name);
  DATABOX_ASSIGN_OR_RETURN(iceberg::Schema incoming, IcebergSchemaFor(*table.schema));
  DATABOX_ASSIGN_OR_RETURN(int64_t rows, CountRows(table));
  const std::string select_sql = "SELECT * FROM " + table.relation;
  TableOutcome outcome;
  outcome.table = source_.Namespace() + "." + table.name;
  outcome.disposition = table.resource->write_disposition;
  outcome.rows = rows;

  std::unique_ptr<iceberg::SnapshotOperation> op;
  DATABOX_ASSIGN_OR_RETURN(auto read, reads_.Read(ident));
  if (!read) {
    DATABOX_ASSIGN_OR_RETURN(op, NewTableAppend(ident, incoming, select_sql));
  } else {
    DATABOX_ASSIGN_OR_RETURN(op, PlanExistingTable(table, incoming, select_sql));
  }
  plan_.rows_loaded += rows;
  Add(std::move(op), std::move(outcome));
  return Ok();
}

Status TablePlanner::PlanWrittenTable(const std::string& name, const registry::Resource& resource,
                                      WrittenTable written) {
  const iceberg::TableIdentifier ident = Ident(name);
  const iceberg::Schema* schema = written.metadata.CurrentSchema();
  if (schema == nullptr) return MakeError(ErrorKind::kInternal, "written table has no schema");
  TableOutcome outcome;
  outcome.table = source_.Namespace() + "." + name;
  outcome.disposition = resource.write_disposition;
  outcome.rows = written.rows;
  std::unique_ptr<iceberg::SnapshotOperation> op;
  if (written.create) {
    op = iceberg::SnapshotOperation::Append(ident, ws_.file_io(), Change());
    op->CreateIfMissing(iceberg::CreateTableUpdates(written.metadata));
    plan_.creates.insert(op.get());
  } else {
    DATABOX_ASSIGN_OR_RETURN(auto read, ReadTable(ident));
    if (!read) {
      return MakeError(ErrorKind::kConflict, "table " + ident.ToString() +
                                                 " was dropped while its data files were "
                                                 "written; load again");
    }
    iceberg::Table& table = *read;
    DATABOX_RETURN_IF_ERROR(EvolveSchema(table, *schema));
    if (table.metadata().default_spec_id != written.metadata.default_spec_id) {
      return MakeError(ErrorKind::kConflict, "table " + ident.ToString() +
                                                 " got another partition spec while its data "
                                                 "files were written; load again");
    }
    for (const iceberg::NestedField& field : schema->fields()) {
      const iceberg::NestedField* now = table.schema().FindFieldByName(field.name);
      if (now == nullptr || now->id != field.id) {
        return MakeError(ErrorKind::kConflict, "table " + ident.ToString() +
                                                   " changed while its data files were "
                                                   "written (column " +
                                                   field.name + "); load again");
      }
    }
    op = FromRead(resource.write_disposition == registry::WriteDisposition::kReplace
                      ? table.NewReplaceAll(Change())
                      : table.NewAppend(Change()),
                  table);
  }
  op->AddFiles(std::move(written.files));
  plan_.rows_loaded += written.rows;
  Add(std::move(op), std::move(outcome));
  return Ok();
}

Result<std::unique_ptr<iceberg::SnapshotOperation>> TablePlanner::NewTableAppend(
    const iceberg::TableIdentifier& ident, const iceberg::Schema& schema,
    const std::string& select_sql) {
  DATABOX_ASSIGN_OR_RETURN(TableLayout layout,
                           LayoutFor(RootResourceOf(source_, ident.name), ident.name, schema));
  DATABOX_ASSIGN_OR_RETURN(
      iceberg::TableMetadata metadata,
      ws_.catalog().PrepareCreateTable(ident, schema, layout.spec, layout.order, {}));
  DATABOX_ASSIGN_OR_RETURN(auto files,
                           iceberg::WriteDataFiles(conn_, *ws_.file_io(), metadata, select_sql));
  auto op = iceberg::SnapshotOperation::Append(ident, ws_.file_io(), Change());
  op->CreateIfMissing(iceberg::CreateTableUpdates(metadata));
  op->AddFiles(std::move(files));
  plan_.creates.insert(op.get());
  return op;
}

Status TablePlanner::EvolveSchema(iceberg::Table& table, const iceberg::Schema& incoming) {
  DATABOX_ASSIGN_OR_RETURN(
      auto merged, iceberg::UnionByName(table.schema(), incoming, table.metadata().last_column_id));
  if (merged.SameStructure(table.schema())) return Ok();
  iceberg::SchemaUpdate evolve(table.identifier(), incoming);
  evolve.StartFrom(table.loaded());
  DATABOX_ASSIGN_OR_RETURN(iceberg::LoadedTable evolved,
                           iceberg::CommitChange(ws_.catalog(), *ws_.file_io(), evolve));
  reads_.Replace(table.identifier(), evolved);
  DATABOX_ASSIGN_OR_RETURN(table, iceberg::Table::Of(ws_.catalog(), ws_.file_io(),
                                                     table.identifier(), std::move(evolved)));
  return Ok();
}

Result<std::unique_ptr<iceberg::SnapshotOperation>> TablePlanner::PlanExistingTable(
    const NormalizedTable& normalized, const iceberg::Schema& incoming,
    const std::string& select_sql) {
  const registry::Resource& resource = *normalized.resource;
  DATABOX_ASSIGN_OR_RETURN(auto read, ReadTable(Ident(normalized.name)));
  if (!read) {
    return MakeError(ErrorKind::kInternal, "table " + normalized.name + " was read and is gone");
  }
  iceberg::Table& table = *read;
  DATABOX_RETURN_IF_ERROR(EvolveSchema(table, incoming));
  DATABOX_RETURN_IF_ERROR(FollowDeclaredLayout(ws_, table, source_, incoming));
  reads_.Replace(table.identifier(), table.loaded());
  iceberg::RowChangeOptions options;
  options.snapshot = Change();
  if (resource.merge_mode) {
    options.mode = *resource.merge_mode == registry::MergeMode::kMergeOnRead
                       ? iceberg::RowChangeMode::kMergeOnRead
                       : iceberg::RowChangeMode::kCopyOnWrite;
  }
  if (IsMerge(resource) && normalized.name == resource.name) {
    // DuckDB reads the table's files: give it the credentials its load just vended (if any).
    DATABOX_RETURN_IF_ERROR(ws_.PrepareDuckDbReads(conn_));
    DATABOX_ASSIGN_OR_RETURN(auto op, iceberg::PrepareMerge(conn_, table, select_sql, options));
    return FromRead(std::move(op), table);
  }
  if (IsMerge(resource)) {
    DATABOX_ASSIGN_OR_RETURN(auto op, PlanMergeChild(table, resource, select_sql, options));
    return FromRead(std::move(op), table);
  }
  return MakeError(ErrorKind::kInternal,
                   "table " + normalized.name + " of " +
                       std::string(registry::ToString(resource.write_disposition)) + " resource " +
                       resource.name + " was staged: only merge tables are");
}

// Drops the children of every root row this load replaces, then adds the new children.
Result<std::unique_ptr<iceberg::SnapshotOperation>> TablePlanner::PlanMergeChild(
    const iceberg::Table& table, const registry::Resource& resource, const std::string& select_sql,
    const iceberg::RowChangeOptions& options) {
  const std::string root = resource.name;
  DATABOX_ASSIGN_OR_RETURN(auto root_read, ReadTable(Ident(root)));
  DATABOX_ASSIGN_OR_RETURN(
      auto files, iceberg::WriteDataFiles(conn_, *ws_.file_io(), table.metadata(), select_sql));
  std::unique_ptr<iceberg::SnapshotOperation> op;
  if (root_read) {
    const iceberg::Table& root_table = *root_read;
    DATABOX_RETURN_IF_ERROR(ws_.PrepareDuckDbReads(conn_));  // both tables' vended credentials
    DATABOX_ASSIGN_OR_RETURN(std::string root_rows, iceberg::ReadSql(root_table));
    const std::string keys = duck::QuoteIdentifierList(resource.primary_key);
    const std::string predicate = "_dlt_root_id IN (SELECT _dlt_id FROM (" + root_rows +
                                  ") WHERE (" + keys + ") IN (SELECT (" + keys + ") FROM " +
                                  tables_.MergeRows(root) + "))";
    DATABOX_ASSIGN_OR_RETURN(op, iceberg::PrepareDeleteWhere(conn_, table, predicate, options));
  } else {
    op = table.NewAppend(Change());
  }
  op->AddFiles(std::move(files));
  return op;
}

Status TablePlanner::PlanSystemTables() {
  const auto now = std::chrono::system_clock::now();
  for (const SystemTable& system :
       SystemTablesFor(load_id_, source_.name, plan_.rows_loaded, now)) {
    const iceberg::TableIdentifier ident = Ident(system.name);
    DATABOX_RETURN_IF_ERROR(conn_.Execute(system.stage_sql));
    const std::string select_sql = "SELECT * FROM " + system.relation;
    std::unique_ptr<iceberg::SnapshotOperation> op;
    DATABOX_ASSIGN_OR_RETURN(auto table, ReadTable(ident));
    if (!table) {
      DATABOX_ASSIGN_OR_RETURN(op, NewTableAppend(ident, system.schema, select_sql));
    } else {
      DATABOX_ASSIGN_OR_RETURN(auto files, iceberg::WriteDataFiles(conn_, *ws_.file_io(),
                                                                   table->metadata(), select_sql));
      op = FromRead(table->NewAppend(Change()), *table);
      op->AddFiles(std::move(files));
    }
    Add(std::move(op),
        TableOutcome{source_.Namespace() + "." + system.name, WriteDisposition::kAppend, 1, {}});
  }
  return Ok();
}

}  // namespace databox::load
