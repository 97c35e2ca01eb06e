// The tables a catalog holds, their summaries, and the ones close to a name that is not one of
// them: for `databox catalog list|describe`, `databox inspect` and `databox report`.
#pragma once

#include <string>
#include <vector>

#include "cli/table_summary.h"
#include "common/error.h"
#include "iceberg/commit/catalog.h"
#include "iceberg/spec/table_identifier.h"
#include "report/report_model.h"

namespace databox::cli {

//! Every table of every namespace (nested ones too), sorted.
Result<std::vector<iceberg::TableIdentifier>> AllTables(iceberg::Catalog& catalog);

//! The summary of each of `tables` (table_summary.h), in their order, read from their metadata;
//! an error naming the first table that cannot be loaded.
Result<std::vector<TableSummary>> SummarizeTables(
    iceberg::Catalog& catalog, const std::vector<iceberg::TableIdentifier>& tables);

//! What to add to "no table NAME": " (did you mean A, B?)" naming the tables within 3 edits of
//! `name`, with its table part as their name, or in the namespace `name` names; else a pointer
//! to `databox catalog list`.
//! Every table with the counts of its current snapshot, as the status page shows them (no
//! loaded_at yet: report::GatherReport adds it); an error "cannot read the tables of catalog
//! NAME: ..." when they cannot be listed or loaded.
Result<std::vector<report::TableState>> ReportTables(iceberg::Catalog& catalog);

std::string TableSuggestion(const std::string& name,
                            const std::vector<iceberg::TableIdentifier>& all);

}  // namespace databox::cli
