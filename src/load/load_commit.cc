#include "load/load_commit.h"

#include <vector>

#include "iceberg/commit/commit.h"
#include "load/system_tables.h"

namespace databox::load {
namespace {

bool IsSystemTable(const iceberg::TableChange& change) {
  return change.identifier().name == kLoadsTable || change.identifier().name == kLoadStatusTable;
}

Status CommitTogether(iceberg::Catalog& catalog, fileio::FileIO& io,
                      std::vector<iceberg::TableChange*> changes) {
  DATABOX_ASSIGN_OR_RETURN(auto committed, iceberg::CommitChanges(catalog, io, changes));
  (void)committed;
  return Ok();
}

Status CommitAlone(iceberg::Catalog& catalog, fileio::FileIO& io, iceberg::TableChange& change) {
  DATABOX_ASSIGN_OR_RETURN(auto committed, iceberg::CommitChange(catalog, io, change));
  (void)committed;
  return Ok();
}

//! New data tables alone, existing tables together, then new system tables alone.
Status CommitCreatesAlone(iceberg::Catalog& catalog, fileio::FileIO& io, LoadPlan& plan) {
  std::vector<iceberg::TableChange*> existing;
  for (auto& op : plan.ops) {
    if (!plan.creates.contains(op.get())) {
      existing.push_back(op.get());
    } else if (!IsSystemTable(*op)) {
      DATABOX_RETURN_IF_ERROR(CommitAlone(catalog, io, *op));
    }
  }
  if (!existing.empty()) DATABOX_RETURN_IF_ERROR(CommitTogether(catalog, io, existing));
  for (auto& op : plan.ops) {
    if (plan.creates.contains(op.get()) && IsSystemTable(*op)) {
      DATABOX_RETURN_IF_ERROR(CommitAlone(catalog, io, *op));
    }
  }
  return Ok();
}

}  // namespace

Status CommitPlan(iceberg::Catalog& catalog, fileio::FileIO& io, LoadPlan& plan) {
  if (catalog.TransactionsCreateTables()) {
    std::vector<iceberg::TableChange*> changes;
    for (auto& op : plan.ops) changes.push_back(op.get());
    auto together = CommitTogether(catalog, io, std::move(changes));
    // A catalog that just learned it cannot create tables in a transaction applied nothing
    // and kept the written files: the same plan goes the table-by-table way.
    if (together || catalog.TransactionsCreateTables()) return together;
  }
  return CommitCreatesAlone(catalog, io, plan);
}

}  // namespace databox::load
