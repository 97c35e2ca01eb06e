// The transform's models at the target (docs/publish.md, "Models"): every table and view SQLMesh
// made in the analytics database (its schemas but SQLMesh's own sqlmesh__*, main and the system
// schemas) is written as a TABLE of the same schema and name into one DuckDB file per version,
// which consumers ATTACH read-only. Views are materialized: a consumer has neither the raw
// catalog nor SQLMesh's physical tables they read.
#pragma once

#include <string>
#include <vector>

#include "common/error.h"
#include "duck/connection.h"

namespace databox::publish {

//! "schema.name" of every model in the analytics database `conn` opened (OpenAnalytics), sorted.
Result<std::vector<std::string>> ListModels(duck::Connection& conn);

//! Writes each of `models` into a new DuckDB file at the local path `database` (replaced if it
//! exists). `conn` reads the analytics database (and the raw catalog its views read).
Status ExportModels(duck::Connection& conn, const std::vector<std::string>& models,
                    const std::string& database);

//! The SELECT of a "schema.name" relation, quoted.
std::string RelationSql(const std::string& qualified, const std::string& database = "");

}  // namespace databox::publish
