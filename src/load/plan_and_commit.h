// The last step of every load (a source load, `databox ingest`): the namespace raw_<source> is
// made if missing, every data table is planned as its resource's write disposition says
// (table_plan.h: staged merge tables, and append/replace tables whose files were streamed), then
// this load's _dlt_loads and _dlt_load_status rows, and the plan is committed (load_commit.h): one
// catalog transaction where the catalog's transactions can create tables.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "common/error.h"
#include "duck/connection.h"
#include "load/normalized_tables.h"
#include "load/source_load.h"
#include "load/streamed_files.h"
#include "load/table_reads.h"
#include "load/workspace.h"
#include "registry/model.h"

namespace databox::load {

//! What the commit of a load produced.
struct CommittedLoad {
  std::vector<TableOutcome> tables;  //!< data tables, then the system tables, with snapshot ids
  int64_t rows_loaded = 0;           //!< rows written to data tables
};

//! Creates the namespace `name` unless it exists (or another process just made it).
Status EnsureNamespace(iceberg::Catalog& catalog, const std::string& name);

//! Where the streamed data files (streamed_files.h) of raw table `schema` of `source` go: the
//! metadata of the existing table (first brought to the partition spec and sort order its
//! resource declares, layout_evolution.h), else metadata the catalog prepares for a new one (the
//! namespace raw_<source> is made first: a REST catalog prepares tables only in an existing one).
//! The table is read through `reads` (the load's one read of it).
Result<TableTarget> StreamTarget(Workspace& workspace, TableReads& reads,
                                 const registry::Source& source,
                                 const normalize::TableSchema& schema);

//! Tables of one resource whose data files are already written (streamed_files.h).
struct WrittenTables {
  const registry::Resource* resource = nullptr;
  std::map<std::string, WrittenTable> tables;  //!< by raw table name
};

//! Plans and commits `tables` and `written` of `source` under `load_id`, data tables in name
//! order. `before_commit` (may be empty) is called once every data file is written, just before
//! the commit. Errors name the source and the table. Tables are read through `reads` (the load's
//! one read of each), and the commit's first attempt starts from those reads.
Result<CommittedLoad> PlanAndCommit(Workspace& workspace, TableReads& reads, duck::Connection& conn,
                                    const registry::Source& source, const NormalizedTables& tables,
                                    const std::string& load_id,
                                    const std::function<void()>& before_commit,
                                    std::vector<WrittenTables> written = {});

}  // namespace databox::load
