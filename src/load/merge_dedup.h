// Deduplication of a load's merge batches: a merge batch must not hold a key twice. Per merge
// resource, by its merge_duplicates policy: last_wins / first_wins keep the last / first row
// appended per primary key (in a new staged table; child rows of dropped records go with them),
// reject fails the load when a key occurs twice (docs/load_package.md). Before that, a batch whose
// records lack a key column or hold a null key fails the load (docs/reliability.md).
#pragma once

#include <vector>

#include "common/error.h"
#include "duck/connection.h"
#include "load/normalized_tables.h"
#include "registry/model.h"

namespace databox::load {

//! Deduplicates the staged root table of every merge resource in `resources` (the resources the
//! load fed, of `source`) and records
//! the relation of the rows to upsert with NormalizedTables::SetMergeRows. kData naming the
//! resource and the count of repeated keys under reject.
Status DeduplicateMergeBatches(duck::Connection& conn, const registry::Source& source,
                               const std::vector<const registry::Resource*>& resources,
                               NormalizedTables& tables);

}  // namespace databox::load
