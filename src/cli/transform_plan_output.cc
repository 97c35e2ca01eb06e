#include "cli/transform_plan_output.h"

#include <sstream>

namespace databox::cli {
namespace {

using Json = nlohmann::ordered_json;
using refresh::RawTableChange;

//! `text` without its leading and trailing blank lines, each line after `indent`.
std::string Indented(const std::string& text, const std::string& indent) {
  std::istringstream in(text);
  std::string line, out, blanks;
  while (std::getline(in, line)) {
    if (line.find_first_not_of(' ') == std::string::npos) {
      if (!out.empty()) blanks += "\n";
      continue;
    }
    out += blanks + indent + line + "\n";
    blanks.clear();
  }
  return out;
}

std::string Joined(const std::vector<std::string>& argv) {
  std::string text;
  for (const auto& arg : argv) text += (text.empty() ? "" : " ") + arg;
  return text;
}

std::string ModelsText(const refresh::ModelPreview& models) {
  if (!models.skipped.empty()) return "models\n  not previewed: " + models.skipped + "\n";
  std::string text = "models (" + Joined(models.command) + ")\n";
  if (!models.error.empty()) return text + "  could not run: " + models.error + "\n";
  text += Indented(models.output, "  ");
  if (models.interrupted) return text + "  interrupted: the preview was stopped\n";
  if (!models.ok) {
    text += "  the preview failed (exit " + std::to_string(models.exit_code) + ")";
    if (!models.log_path.empty()) text += "; its log is " + models.log_path.string();
    text += "\n";
  }
  return text;
}

//! What follows a changed table's name: nothing, " (new table)" or " (table gone)".
std::string KindText(RawTableChange::Kind kind) {
  if (kind == RawTableChange::Kind::kNewTable) return " (new table)";
  return kind == RawTableChange::Kind::kGone ? " (table gone)" : "";
}

//! The kind in JSON: "columns", "new_table" or "gone".
std::string KindName(RawTableChange::Kind kind) {
  if (kind == RawTableChange::Kind::kNewTable) return "new_table";
  return kind == RawTableChange::Kind::kGone ? "gone" : "columns";
}

std::string RawColumnsText(const refresh::RawColumnsPreview& raw) {
  if (!raw.problem.empty()) return "raw columns\n  not compared: " + raw.problem + "\n";
  if (!raw.compared_with) {
    return "raw columns\n  no earlier transform to compare with: `databox transform` and the "
           "transform of `databox refresh` record them when they succeed\n";
  }
  const std::string since = "since the last transform (" + *raw.compared_with + ")";
  if (raw.changes.empty()) return "raw columns\n  no raw column changed " + since + "\n";
  std::string text = "raw columns changed " + since + "\n";
  for (const RawTableChange& change : raw.changes) {
    text += "  " + change.table + KindText(change.kind) + "\n";
    for (const auto& column : change.added)
      text += "    + " + column.name + " " + column.type + "\n";
    for (const auto& column : change.removed) {
      text += "    - " + column.name + " " + column.type + "\n";
    }
    for (const auto& column : change.retyped) {
      text += "    ~ " + column.name + " " + column.before + " -> " + column.now + "\n";
    }
  }
  return text;
}

Json ColumnsJson(const std::vector<refresh::RawColumn>& columns) {
  Json out = Json::array();
  for (const auto& column : columns) out.push_back({{"name", column.name}, {"type", column.type}});
  return out;
}

}  // namespace

std::string FormatTransformPlan(const refresh::TransformPlan& plan) {
  return ModelsText(plan.models) + "\n" + RawColumnsText(plan.raw_columns);
}

Json TransformPlanJson(const refresh::TransformPlan& plan) {
  const refresh::ModelPreview& models = plan.models;
  Json tables = Json::array();
  for (const RawTableChange& change : plan.raw_columns.changes) {
    Json retyped = Json::array();
    for (const auto& column : change.retyped) {
      retyped.push_back({{"name", column.name}, {"before", column.before}, {"now", column.now}});
    }
    tables.push_back({{"table", change.table},
                      {"kind", KindName(change.kind)},
                      {"added", ColumnsJson(change.added)},
                      {"removed", ColumnsJson(change.removed)},
                      {"retyped", retyped}});
  }
  const auto& compared = plan.raw_columns.compared_with;
  return Json{{"ok", plan.ok()},
              {"models",
               {{"command", models.command},
                {"skipped", models.skipped},
                {"ok", models.ok},
                {"changes", models.changes},
                {"interrupted", models.interrupted},
                {"exit_code", models.exit_code},
                {"output", models.output},
                {"error", models.error},
                {"log", models.log_path.string()}}},
              {"raw_columns",
               {{"compared_with", compared ? Json(*compared) : Json()},
                {"problem", plan.raw_columns.problem},
                {"tables", tables}}}};
}

}  // namespace databox::cli
