#include "refresh/model_results.h"

#include <regex>
#include <sstream>

namespace databox::refresh {
namespace {

//! Where a line of SQLMesh's output is: which list of models it is in.
enum class Section { kNone, kFailed, kSkipped };

std::string Trim(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return "";
  const auto last = text.find_last_not_of(" \t\r");
  return std::string(text.substr(first, last - first + 1));
}

//! "audits passed 1" from "full refresh, audits passed 1"; "" when the bracket names none.
std::string AuditsOf(const std::string& bracket) {
  const auto at = bracket.find("audits ");
  if (at == std::string::npos) return "";
  std::string audits = bracket.substr(at + 7);
  return audits.substr(0, audits.find(','));
}

//! The name in a list item "* `<name>`"; "" when `line` is not one.
std::string ListedModel(const std::string& line) {
  static const std::regex kItem(R"(^\s*\* `([^`]+)`\s*$)");
  std::smatch match;
  return std::regex_match(line, match, kItem) ? ModelNameOf(match[1].str()) : "";
}

//! Adds the error lines of the fenced block that follows a failed model's name.
class ErrorBlock {
 public:
  //! True while `line` belongs to the block (its fences included).
  bool Take(const std::string& line, ModelResult& model) {
    const std::string text = Trim(line);
    if (text == "```") {
      open_ = !open_;
      if (!open_) Finish(model);
      return true;
    }
    if (!open_) return false;
    if (!text.empty()) lines_.push_back(text);
    return true;
  }

 private:
  void Finish(ModelResult& model) {
    for (const auto& l : lines_) model.error += (model.error.empty() ? "" : "\n") + l;
    if (!lines_.empty() && lines_.front().find("audit error") != std::string::npos) {
      model.audits = "failed: " + lines_.front();
    }
    lines_.clear();
  }
  bool open_ = false;
  std::vector<std::string> lines_;
};

}  // namespace

nlohmann::json ModelResult::ToJson() const {
  return {{"name", name},         {"status", ModelStatusName(status)},
          {"built_at", built_at}, {"rows", rows ? nlohmann::json(*rows) : nlohmann::json()},
          {"audits", audits},     {"error", error}};
}

Result<ModelResult> ModelResult::FromJson(const nlohmann::json& json) {
  ModelResult model;
  model.name = json.at("name").get<std::string>();
  DATABOX_ASSIGN_OR_RETURN(model.status, ParseModelStatus(json.value("status", "not_run")));
  model.built_at = json.value("built_at", "");
  if (json.contains("rows") && !json["rows"].is_null()) model.rows = json["rows"].get<int64_t>();
  model.audits = json.value("audits", "");
  model.error = json.value("error", "");
  return model;
}

std::string ModelNameOf(std::string_view printed) {
  std::string name;
  for (char c : printed) {
    if (c != '"' && c != '`') name += c;
  }
  // catalog.schema.table: the catalog is the analytics database's, the same for every model.
  const auto first = name.find('.');
  if (first != std::string::npos && name.find('.', first + 1) != std::string::npos) {
    name.erase(0, first + 1);
  }
  return name;
}

std::map<std::string, ModelResult> ParseSqlMeshOutput(std::string_view output) {
  static const std::regex kBuilt(R"(^\[\d+/\d+\]\s+(\S+)\s+\[([^\]]*)\])");
  std::map<std::string, ModelResult> models;
  auto model = [&](const std::string& name) -> ModelResult& {
    ModelResult& m = models[name];
    m.name = name;
    return m;
  };
  std::istringstream in{std::string(output)};
  std::string line;
  Section section = Section::kNone;
  ErrorBlock block;
  ModelResult* failed = nullptr;
  std::smatch match;
  while (std::getline(in, line)) {
    if (failed != nullptr && block.Take(line, *failed)) continue;
    const std::string text = Trim(line);
    if (text == "**Failed models**") {
      section = Section::kFailed;
    } else if (text == "**Skipped models**") {
      section = Section::kSkipped;
    } else if (std::regex_search(line, match, kBuilt)) {
      ModelResult& m = model(ModelNameOf(match[1].str()));
      if (m.status != ModelStatus::kFailed) m.status = ModelStatus::kOk;
      if (const std::string audits = AuditsOf(match[2].str()); !audits.empty()) m.audits = audits;
    } else if (const std::string name = ListedModel(line);
               !name.empty() && section != Section::kNone) {
      ModelResult& m = model(name);
      m.status = section == Section::kFailed ? ModelStatus::kFailed : ModelStatus::kSkipped;
      failed = section == Section::kFailed ? &m : nullptr;
    } else if (!text.empty() && !text.starts_with("* ")) {
      section = Section::kNone;  // "Error: ...", a progress bar: the list has ended
      failed = nullptr;
    }
  }
  return models;
}

std::vector<ModelResult> MergeModelResults(const std::map<std::string, ModelResult>& printed,
                                           const std::map<std::string, ModelBuild>& builds,
                                           bool transform_ok) {
  std::map<std::string, ModelResult> merged = printed;
  for (const auto& [name, build] : builds) {
    auto [it, added] = merged.try_emplace(name);
    ModelResult& model = it->second;
    if (added) {
      model.name = name;
      model.status = transform_ok ? ModelStatus::kOk : ModelStatus::kNotRun;
    }
    model.built_at = build.built_at;
    model.rows = build.rows;
  }
  std::vector<ModelResult> out;
  for (auto& [name, model] : merged) out.push_back(std::move(model));
  return out;
}

}  // namespace databox::refresh
