// The normalized rows of one source load, by raw table, from normalization to the commit.
// Tables of merge resources are staged in DuckDB, because deduplication and the merge run SQL
// over them. Tables of append and replace resources stay in memory as the normalizer's column
// batches and are read by DuckDB straight from there (databox_scan, duck/chunk_scan.h) while
// their data files are written: no staging table in between.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/error.h"
#include "duck/connection.h"
#include "load/batch_scan.h"
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
  std::optional<int64_t> rows;  //!< their count when known without a query (buffered tables)
};

class NormalizedTables {
 public:
  //! Stages merge tables in schema "stage" of `conn`'s database; `conn` must outlive this.
  static Result<NormalizedTables> Make(duck::Connection* conn);

  //! Adds one normalizer batch of `resource`'s tables: staged for a merge resource, buffered
  //! otherwise.
  Status Add(const registry::Resource& resource, normalize::TableBatch batch);

  //! Calls `visit` for every table, in name order, whichever holds its rows; a buffered table's
  //! relation reads it only during the call. Stops at the first error and returns it.
  Status ForEachTable(const std::function<Status(const NormalizedTable&)>& visit) const;

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
  NormalizedTable Describe(const std::string& name) const;

  StagingArea staging_;                            //!< tables of merge resources
  std::map<std::string, BufferedTable> buffered_;  //!< tables of append/replace resources
  //! Table -> the resource that produced it (root and child tables).
  std::map<std::string, const registry::Resource*> resource_of_;
  //! Merge root tables after deduplication: table -> relation holding the rows to upsert.
  std::map<std::string, std::string> merge_rows_;
};

}  // namespace databox::load
