// Committing a load's plan (table_plan.h) through the workspace's catalog. A catalog whose
// transactions can create tables (the embedded SQL catalog; Nessie) gets every change in one
// transaction: all of the source's tables and its status rows land together or none does. A
// REST catalog is asked that way first; one whose server refuses (the reference adapter,
// Polaris: iceberg::Catalog::TransactionsCreateTables turns false) gets each new data table alone
// with its first data (assert-create), then every change to an existing table in one
// transaction, then the new system tables in order (_dlt_load_status last): a load that fails
// part-way never publishes its success row, and the tables it created keep their (complete)
// first data. docs/services.md.
#pragma once

#include "common/error.h"
#include "fileio/file_io.h"
#include "iceberg/commit/catalog.h"
#include "load/table_plan.h"

namespace databox::load {

//! Commits every change of `plan`; each operation then knows its snapshot id.
Status CommitPlan(iceberg::Catalog& catalog, fileio::FileIO& io, LoadPlan& plan);

}  // namespace databox::load
