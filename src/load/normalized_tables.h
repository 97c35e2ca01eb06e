// The normalized rows of a load's merge resources, by raw table, from normalization to the
// commit: staged in DuckDB, because deduplication and the merge run SQL over them. Tables of
// append and replace resources are not held here: their rows are written to data files as the
// normalizer hands them over (streamed_files.h) and planned as written tables (plan_and_commit.h).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "common/error.h"
#include "duck/connection.h"
#include "load/staging.h"
#include "normalize/column_batch.h"
#include "normalize/table_schema.h"
#include "registry/model.h"

namespace databox::load {

//! One raw table's rows as DuckDB reads them while the table is planned.
struct NormalizedTable {
  std::string name;                                //!< the raw table, e.g. "observations"
  const registry::Resource* resource = nullptr;    //!< the resource whose records made it
  const normalize::TableSchema* schema = nullptr;  //!< its latest schema
  std::string relation;  //!< DuckDB FROM item of the rows to write (merge roots: deduplicated)
};

class NormalizedTables {
 public:
  //! Stages merge tables in schema "stage" of `conn`'s database; `conn` must outlive this.
  static Result<NormalizedTables> Make(duck::Connection* conn);

  //! Stages one normalizer batch of `resource`'s tables (a merge resource: kInternal otherwise).
  Status Add(const registry::Resource& resource, const normalize::TableBatch& batch);

  //! The tables staged, in name order.
  std::vector<NormalizedTable> Tables() const;

  //! The staged table `name` of a merge resource, or nullptr.
  const StagedTable* Staged(const std::string& name) const;
  //! The staged child tables of `resource` (every staged table it made but its root).
  std::vector<const StagedTable*> StagedChildren(const registry::Resource& resource) const;
  //! Sets the relation holding a merge root table's rows after deduplication.
  void SetMergeRows(const std::string& root, std::string relation) {
    merge_rows_[root] = std::move(relation);
  }
  //! The relation SetMergeRows gave for `root`.
  const std::string& MergeRows(const std::string& root) const { return merge_rows_.at(root); }

 private:
  explicit NormalizedTables(StagingArea staging) : staging_(std::move(staging)) {}

  StagingArea staging_;  //!< tables of merge resources
  //! Table -> the resource that produced it (root and child tables).
  std::map<std::string, const registry::Resource*> resource_of_;
  //! Merge root tables after deduplication: table -> relation holding the rows to upsert.
  std::map<std::string, std::string> merge_rows_;
};

}  // namespace databox::load
