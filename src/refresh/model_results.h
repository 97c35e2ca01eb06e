// The per-model results of a transform, as the run history records them (`transform.models`,
// docs/run_history.md): what SQLMesh printed about each model (ParseSqlMeshOutput) merged with
// what its state database and the analytics database say (model_state.h: when each model was
// last built, how many rows its table holds). Pure functions of text and values, so tests give
// them SQLMesh's output.
//
// SQLMesh's output, as `sqlmesh plan` prints it with COLUMNS wide enough that no line wraps:
//   [1/1] analytics.a   [full refresh, audits passed 1]     0.09s     a model built
//   **Failed models**                                               then, per failed model,
//   * `"db"."analytics"."b"`                                        its name and its error
//     ```  <error lines>  ```                                       in a fenced block
//   **Skipped models**                                              models not built because
//   * `"db"."analytics"."d"`                                        a parent failed
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/error.h"
#include "refresh/run_status.h"

namespace databox::refresh {

//! One model in one transform.
struct ModelResult {
  std::string name;  //!< "analytics.fct_daily_weather" (schema.table, no catalog, no quotes)
  ModelStatus status = ModelStatus::kNotRun;
  std::string built_at;         //!< ISO 8601 UTC of its newest build in SQLMesh's state; "" none
  std::optional<int64_t> rows;  //!< count(*) of its table after the transform; nullopt unknown
  std::string audits;           //!< "passed 1", "failed: <first line>"; "" none reported
  std::string error;            //!< SQLMesh's error for a failed model (redacted when recorded)

  nlohmann::json ToJson() const;
  static Result<ModelResult> FromJson(const nlohmann::json& json);
};

//! "analytics.b" for `"db"."analytics"."b"`, `analytics.b` or "db.analytics.b".
std::string ModelNameOf(std::string_view printed);

//! What SQLMesh's output says about each model it named (status, audits, error), by name.
std::map<std::string, ModelResult> ParseSqlMeshOutput(std::string_view output);

//! What the state and the analytics database say about one model.
struct ModelBuild {
  std::string built_at;  //!< ISO 8601 UTC; "" never built
  std::optional<int64_t> rows;
};

//! Every model named in `printed` or `builds` (by name, sorted): its printed status, audits and
//! error, with its build time and rows. A model SQLMesh did not name is kOk when the transform
//! succeeded (unchanged, current) and kNotRun when it failed.
std::vector<ModelResult> MergeModelResults(const std::map<std::string, ModelResult>& printed,
                                           const std::map<std::string, ModelBuild>& builds,
                                           bool transform_ok);

}  // namespace databox::refresh
