// Planning the commit of one source load: for every raw table the snapshot operation that
// brings this load's rows into it, with its data files already written under the table's
// location, and this load's rows of the system tables. Nothing but new columns is committed
// here; load_commit.h commits the plan.
//
// A new table is created by the commit that adds its first data (assert-create): the catalog
// prepares its metadata (iceberg::Catalog::PrepareCreateTable) and the files are written under
// it. An existing table first gets the load's new columns, committed on their own (optional
// columns only, no rows change), so that the data files are written with the evolved field ids.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "common/error.h"
#include "duck/connection.h"
#include "iceberg/commit/table_operations.h"
#include "iceberg/data/merge.h"
#include "iceberg/produce/snapshot_producer.h"
#include "iceberg/table.h"
#include "load/normalized_tables.h"
#include "load/source_load.h"
#include "load/streamed_files.h"
#include "load/table_reads.h"
#include "load/workspace.h"
#include "registry/model.h"

namespace databox::load {

//! The planned changes of one load, one per table, in commit order.
struct LoadPlan {
  std::vector<TableOutcome> outcomes;  //!< data tables in name order, then the system tables
  //! outcomes[i]'s change; snapshot ids are known once committed.
  std::vector<std::unique_ptr<iceberg::SnapshotOperation>> ops;
  std::set<const iceberg::TableChange*> creates;  //!< changes that create their table
  int64_t rows_loaded = 0;                        //!< rows planned into data tables
};

class TablePlanner {
 public:
  //! Every reference must outlive the planner. Tables are read through `reads` (the load's one
  //! read of each); every change to an existing table starts its commit from that read.
  TablePlanner(Workspace& workspace, TableReads& reads, duck::Connection& conn,
               const registry::Source& source, const NormalizedTables& tables, std::string load_id)
      : ws_(workspace),
        reads_(reads),
        conn_(conn),
        source_(source),
        tables_(tables),
        load_id_(std::move(load_id)) {}

  //! Plans one staged table of a merge resource (docs/load_package.md): the upsert of its root
  //! table, the delete-insert of a child table; a new table is created with the rows.
  Status PlanTable(const NormalizedTable& table);
  //! Plans one data table of `resource` (append or replace) whose files are already written
  //! (streamed_files.h): a new table is created with them; an existing one first gets the new
  //! columns (committed on their own, as PlanTable does), which must get the field ids the files
  //! were written with (kConflict if the table changed meanwhile).
  Status PlanWrittenTable(const std::string& name, const registry::Resource& resource,
                          WrittenTable written);
  //! Plans this load's row of _dlt_loads and _dlt_load_status (rows_loaded = the rows planned
  //! into data tables so far).
  Status PlanSystemTables();
  //! The plan so far; the planner is done with it.
  LoadPlan TakePlan() { return std::move(plan_); }

 private:
  iceberg::SnapshotChange Change() const;
  iceberg::TableIdentifier Ident(const std::string& table) const;
  //! The existing table `ident` as this load read it; nullopt when it does not exist.
  Result<std::optional<iceberg::Table>> ReadTable(const iceberg::TableIdentifier& ident);
  //! `op`, a change to `table` as this load read it, starts its commit from that read.
  static std::unique_ptr<iceberg::SnapshotOperation> FromRead(
      std::unique_ptr<iceberg::SnapshotOperation> op, const iceberg::Table& table);
  //! `table`'s row count, counted by DuckDB.
  Result<int64_t> CountRows(const NormalizedTable& table);
  //! A table created by its first append (the files written under the prepared metadata).
  Result<std::unique_ptr<iceberg::SnapshotOperation>> NewTableAppend(
      const iceberg::TableIdentifier& ident, const iceberg::Schema& schema,
      const std::string& select_sql);
  //! Commits the columns `incoming` adds to `table` (if any); `table` and the load's read of it
  //! become the catalog's answer.
  Status EvolveSchema(iceberg::Table& table, const iceberg::Schema& incoming);
  Result<std::unique_ptr<iceberg::SnapshotOperation>> PlanExistingTable(
      const NormalizedTable& table, const iceberg::Schema& incoming, const std::string& select_sql);
  //! dlt's delete-insert for a merge resource's child table.
  Result<std::unique_ptr<iceberg::SnapshotOperation>> PlanMergeChild(
      const iceberg::Table& table, const registry::Resource& resource,
      const std::string& select_sql, const iceberg::RowChangeOptions& options);
  void Add(std::unique_ptr<iceberg::SnapshotOperation> op, TableOutcome outcome);

  Workspace& ws_;
  TableReads& reads_;
  duck::Connection& conn_;
  const registry::Source& source_;
  const NormalizedTables& tables_;
  const std::string load_id_;
  LoadPlan plan_;
};

}  // namespace databox::load
