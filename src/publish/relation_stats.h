// What the manifest says of a relation and the read-back checks: its ordered schema as DuckDB
// reads it, its row count and the load ids it holds. One function reads both the authoritative
// relation and the published copy, so the two are described the same way.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/error.h"
#include "duck/connection.h"
#include "publish/manifest.h"

namespace databox::publish {

struct RelationStats {
  std::vector<Column> schema;  //!< DESCRIBE's names and types, in order
  int64_t rows = 0;
  //! Distinct values of _dlt_load_id (or of load_id in the load tables), sorted; empty when the
  //! relation has neither column.
  std::vector<std::string> load_ids;
};

//! Reads `select_sql` (a SELECT, or a relation name) on `conn`.
Result<RelationStats> ReadRelationStats(duck::Connection& conn, const std::string& select_sql);

}  // namespace databox::publish
