// What `databox transform --plan` prints: the plan (refresh/transform_plan.h) as text for people
// or as one JSON object.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "refresh/transform_plan.h"

namespace databox::cli {

//! Two sections, "models" (SQLMesh's preview, indented, or why it did not run) and "raw columns"
//! (per changed table: "+ name type", "- name type", "~ name before -> now"; or that nothing
//! changed, or that no earlier transform recorded them).
std::string FormatTransformPlan(const refresh::TransformPlan& plan);

//! {"ok", "models": {"command", "skipped", "ok", "changes", "interrupted", "exit_code", "output",
//! "error",
//!  "log"}, "raw_columns": {"compared_with" (null: none yet), "problem", "tables": [{"table",
//!  "kind": "columns|new_table|gone", "added", "removed": [{"name", "type"}], "retyped":
//!  [{"name", "before", "now"}]}]}}
nlohmann::ordered_json TransformPlanJson(const refresh::TransformPlan& plan);

}  // namespace databox::cli
