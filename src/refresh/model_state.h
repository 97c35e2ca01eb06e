// What SQLMesh's state database and the analytics database say about the models of prod after a
// transform on DuckDB: the models prod holds (sqlmesh._environments), when each was last built
// (the newest created_ts of its intervals in sqlmesh._intervals, restatements included) and how
// many rows its table holds (count(*) in the analytics database). Read-only on both.
#pragma once

#include <filesystem>
#include <map>
#include <string>

#include "common/error.h"
#include "refresh/model_results.h"

namespace databox::refresh {

//! The models of prod by name (ModelNameOf), each with its build time and rows (nullopt when
//! its table cannot be counted). Empty when the state has no prod yet; an error when a
//! database cannot be opened or the state's tables are not the ones of the SQLMesh version
//! databox runs.
Result<std::map<std::string, ModelBuild>> ReadModelBuilds(
    const std::filesystem::path& state_db, const std::filesystem::path& analytics_db);

}  // namespace databox::refresh
