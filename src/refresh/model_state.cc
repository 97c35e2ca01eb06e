#include "refresh/model_state.h"

#include <nlohmann/json.hpp>

#include "common/clock.h"
#include "duck/connection.h"
#include "duck/database.h"

namespace databox::refresh {
namespace {

Result<duck::Database> OpenReadOnly(const std::filesystem::path& path) {
  duck::DatabaseOptions options;
  options.read_only = true;
  options.threads = 1;
  return duck::Database::Open(path.string(), options);
}

//! The qualified names ("db"."analytics"."a") of prod's models: the snapshots JSON of prod.
Result<std::vector<std::string>> ProdModels(duck::Connection& state) {
  DATABOX_ASSIGN_OR_RETURN(
      auto prod, state.Query("SELECT snapshots FROM sqlmesh._environments WHERE name = 'prod'"));
  std::vector<std::string> names;
  if (prod.row_count() == 0) return names;
  DATABOX_ASSIGN_OR_RETURN(std::string text, prod.GetString(0, 0));
  const auto snapshots = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!snapshots.is_array()) {
    return MakeError(ErrorKind::kData, "SQLMesh's prod environment lists no snapshots array");
  }
  for (const auto& snapshot : snapshots) {
    if (snapshot.value("node_type", "model") != "model") continue;
    if (snapshot.contains("name") && snapshot["name"].is_string()) {
      names.push_back(snapshot["name"].get<std::string>());
    }
  }
  return names;
}

//! The newest build of every model by qualified name, as ISO 8601 UTC.
Result<std::map<std::string, std::string>> BuildTimes(duck::Connection& state) {
  DATABOX_ASSIGN_OR_RETURN(auto builds,
                           state.Query("SELECT name, max(created_ts) FROM sqlmesh._intervals "
                                       "WHERE NOT coalesce(is_dev, false) GROUP BY name"));
  std::map<std::string, std::string> times;
  for (uint64_t row = 0; row < builds.row_count(); ++row) {
    if (builds.IsNull(1, row)) continue;
    DATABOX_ASSIGN_OR_RETURN(std::string name, builds.GetString(0, row));
    DATABOX_ASSIGN_OR_RETURN(int64_t millis, builds.GetInt64(1, row));
    times[name] = MillisIso(millis);
  }
  return times;
}

}  // namespace

Result<std::map<std::string, ModelBuild>> ReadModelBuilds(
    const std::filesystem::path& state_db, const std::filesystem::path& analytics_db) {
  std::map<std::string, ModelBuild> builds;
  std::error_code ec;
  if (!std::filesystem::exists(state_db, ec)) return builds;
  std::vector<std::string> models;
  std::map<std::string, std::string> times;
  {
    DATABOX_ASSIGN_OR_RETURN(auto db, OpenReadOnly(state_db));
    DATABOX_ASSIGN_OR_RETURN(auto state, duck::Connection::Open(db));
    DATABOX_ASSIGN_OR_RETURN(models, ProdModels(state));
    DATABOX_ASSIGN_OR_RETURN(times, BuildTimes(state));
  }
  for (const auto& qualified : models) builds[ModelNameOf(qualified)].built_at = times[qualified];
  if (models.empty() || !std::filesystem::exists(analytics_db, ec)) return builds;
  // Opened directly, the analytics database's catalog is its file's stem, as SQLMesh names it.
  DATABOX_ASSIGN_OR_RETURN(auto db, OpenReadOnly(analytics_db));
  DATABOX_ASSIGN_OR_RETURN(auto analytics, duck::Connection::Open(db));
  for (const auto& qualified : models) {
    auto count = analytics.Query("SELECT count(*) FROM " + qualified);
    if (!count) continue;  // a model never built has no table yet
    if (auto rows = count->GetInt64(0, 0)) builds[ModelNameOf(qualified)].rows = *rows;
  }
  return builds;
}

}  // namespace databox::refresh
