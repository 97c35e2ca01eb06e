#include "load/plan_and_commit.h"

#include "common/failpoint.h"
#include "iceberg/table.h"
#include "load/layout_evolution.h"
#include "load/load_commit.h"
#include "load/staging.h"
#include "load/table_layout.h"
#include "load/table_plan.h"

namespace databox::load {

Status EnsureNamespace(iceberg::Catalog& catalog, const std::string& name) {
  const iceberg::Namespace ns{name};
  DATABOX_ASSIGN_OR_RETURN(bool ns_exists, catalog.NamespaceExists(ns));
  if (ns_exists) return Ok();
  if (auto created = catalog.CreateNamespace(ns, {});
      !created && created.error().kind != ErrorKind::kAlreadyExists) {
    return created;
  }
  return Ok();
}

Result<TableTarget> StreamTarget(Workspace& workspace, TableReads& reads,
                                 const registry::Source& source,
                                 const normalize::TableSchema& schema) {
  const iceberg::TableIdentifier ident{{source.Namespace()}, schema.name};
  DATABOX_ASSIGN_OR_RETURN(auto read, reads.Read(ident));
  DATABOX_ASSIGN_OR_RETURN(iceberg::Schema incoming, IcebergSchemaFor(schema));
  if (read) {
    DATABOX_ASSIGN_OR_RETURN(
        auto table, iceberg::Table::Of(workspace.catalog(), workspace.file_io(), ident, *read));
    DATABOX_RETURN_IF_ERROR(FollowDeclaredLayout(workspace, table, source, incoming));
    reads.Replace(ident, table.loaded());  // as the layout it may have committed left it
    return TableTarget{table.metadata(), false};
  }
  DATABOX_RETURN_IF_ERROR(EnsureNamespace(workspace.catalog(), source.Namespace()));
  DATABOX_ASSIGN_OR_RETURN(TableLayout layout,
                           LayoutFor(RootResourceOf(source, schema.name), schema.name, incoming));
  DATABOX_ASSIGN_OR_RETURN(
      iceberg::TableMetadata metadata,
      workspace.catalog().PrepareCreateTable(ident, incoming, layout.spec, layout.order, {}));
  return TableTarget{std::move(metadata), true};
}

Result<CommittedLoad> PlanAndCommit(Workspace& workspace, TableReads& reads, duck::Connection& conn,
                                    const registry::Source& source, const NormalizedTables& tables,
                                    const std::string& load_id,
                                    const std::function<void()>& before_commit,
                                    std::vector<WrittenTables> written) {
  DATABOX_RETURN_IF_ERROR(EnsureNamespace(workspace.catalog(), source.Namespace()));
  TablePlanner planner(workspace, reads, conn, source, tables, load_id);
  // Every data table by name: staged (merge) tables and written ones.
  std::map<std::string, std::function<Status()>> plans;
  for (const NormalizedTable& table : tables.Tables()) {
    plans[table.name] = [&planner, table] { return planner.PlanTable(table); };
  }
  for (WrittenTables& group : written) {
    for (auto& [name, table] : group.tables) {
      plans[name] = [&planner, &name, &table, resource = group.resource] {
        return planner.PlanWrittenTable(name, *resource, std::move(table));
      };
    }
  }
  for (const auto& [name, plan] : plans) {
    if (auto planned = plan(); !planned) {
      return std::unexpected(planned.error().WithContext("source " + source.name + ", table " +
                                                         source.Namespace() + "." + name));
    }
    Failpoint("after-data-files");
  }
  DATABOX_RETURN_IF_ERROR(planner.PlanSystemTables());
  Failpoint("after-data-files");
  if (before_commit) before_commit();
  LoadPlan plan = planner.TakePlan();
  DATABOX_RETURN_IF_ERROR(CommitPlan(workspace.catalog(), *workspace.file_io(), plan));
  for (std::size_t i = 0; i < plan.ops.size(); ++i) {
    plan.outcomes[i].snapshot_id = plan.ops[i]->snapshot_id();
  }
  return CommittedLoad{std::move(plan.outcomes), plan.rows_loaded};
}

}  // namespace databox::load
