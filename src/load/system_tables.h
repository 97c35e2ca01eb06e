// The two system tables every source load appends to, in the same commit as its data:
//   _dlt_loads        dlt's columns (load_id, schema_name, status, inserted_at,
//   schema_version_hash) _dlt_load_status  docs/design.md: load_id, schema_name, status (0 =
//   success), inserted_at
//                     (timestamp without zone, UTC), rows_loaded; identifier field load_id
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "iceberg/spec/schema.h"

namespace databox::load {

inline constexpr const char* kLoadsTable = "_dlt_loads";
inline constexpr const char* kLoadStatusTable = "_dlt_load_status";

//! One system table row of a load, ready to stage in DuckDB schema "stage".
struct SystemTable {
  std::string name;        //!< table name in raw_<source>
  iceberg::Schema schema;  //!< its Iceberg schema
  std::string stage_sql;   //!< creates `relation` holding this load's row
  std::string relation;    //!< qualified DuckDB relation
};

//! The rows a successful load adds: status 0, `rows_loaded` = rows written to data tables.
std::vector<SystemTable> SystemTablesFor(const std::string& load_id, const std::string& schema_name,
                                         int64_t rows_loaded,
                                         std::chrono::system_clock::time_point inserted_at);

}  // namespace databox::load
