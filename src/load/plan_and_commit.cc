#include "load/plan_and_commit.h"

#include "common/failpoint.h"
#include "load/load_commit.h"
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

Result<CommittedLoad> PlanAndCommit(Workspace& workspace, duck::Connection& conn,
                                    const registry::Source& source, const NormalizedTables& tables,
                                    const std::string& load_id,
                                    const std::function<void()>& before_commit,
                                    WrittenTables written) {
  DATABOX_RETURN_IF_ERROR(EnsureNamespace(workspace.catalog(), RawNamespace(source)));
  TablePlanner planner(workspace, conn, source, tables, load_id);
  DATABOX_RETURN_IF_ERROR(tables.ForEachTable([&](const NormalizedTable& table) -> Status {
    if (auto planned = planner.PlanTable(table); !planned) {
      return std::unexpected(planned.error().WithContext("source " + source.name + ", table " +
                                                         RawNamespace(source) + "." + table.name));
    }
    Failpoint("after-data-files");
    return Ok();
  }));
  for (auto& [name, table] : written.tables) {
    if (auto planned = planner.PlanWrittenTable(name, *written.resource, std::move(table));
        !planned) {
      return std::unexpected(planned.error().WithContext("source " + source.name + ", table " +
                                                         RawNamespace(source) + "." + name));
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
