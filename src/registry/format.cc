#include "registry/format.h"

#include <algorithm>

namespace databox::registry {
namespace {

std::string Join(const std::vector<std::string>& parts, std::string_view separator) {
  std::string text;
  for (const std::string& part : parts) {
    if (!text.empty()) text += separator;
    text += part;
  }
  return text;
}

std::string Pad(std::string text, std::size_t width) {
  text.resize(std::max(width, text.size()), ' ');
  return text;
}

//! The tables column of one source: declared tables (a disabled resource's marked), then the
//! undeclared ones.
std::vector<std::string> TableCells(const Source& source, const UndeclaredTables& undeclared) {
  std::vector<std::string> cells;
  for (const Resource& resource : source.resources) {
    const std::string mark = resource.enabled ? "" : " (disabled)";
    cells.push_back(resource.name + mark);
    for (const std::string& child : resource.child_tables) cells.push_back(child + mark);
  }
  if (auto it = undeclared.find(source.name); it != undeclared.end()) {
    for (const std::string& table : it->second) cells.push_back(table + " (undeclared)");
  }
  return cells;
}

}  // namespace

std::string FormatSourcesTable(const Registry& registry, const UndeclaredTables& undeclared) {
  const std::vector<std::string> header = {"SOURCE", "ELIGIBILITY", "KIND", "NAMESPACE", "TABLES"};
  std::vector<std::vector<std::string>> rows = {header};
  for (const Source& source : registry.sources) {
    rows.push_back({source.name, std::string(ToString(source.eligibility)),
                    std::string(ToString(source.kind)), source.Namespace(),
                    Join(TableCells(source, undeclared), ", ")});
  }
  std::vector<std::size_t> widths(header.size(), 0);
  for (const auto& row : rows) {
    for (std::size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], row[i].size());
  }
  std::string text;
  for (const auto& row : rows) {
    std::string line;
    for (std::size_t i = 0; i < row.size(); ++i) {
      line += i + 1 < row.size() ? Pad(row[i], widths[i] + 2) : row[i];
    }
    text += line + "\n";
  }
  return text;
}

nlohmann::json SourcesToJson(const Registry& registry, const UndeclaredTables& undeclared) {
  nlohmann::json sources = nlohmann::json::array();
  for (const Source& source : registry.sources) {
    nlohmann::json resources = nlohmann::json::array();
    for (const Resource& resource : source.resources) {
      resources.push_back({{"name", resource.name},
                           {"enabled", resource.enabled},
                           {"child_tables", resource.child_tables}});
    }
    auto it = undeclared.find(source.name);
    sources.push_back(
        {{"name", source.name},
         {"eligibility", ToString(source.eligibility)},
         {"kind", ToString(source.kind)},
         {"namespace", source.Namespace()},
         {"tables", source.Tables()},
         {"resources", resources},
         {"undeclared_tables", it == undeclared.end() ? std::vector<std::string>{} : it->second}});
  }
  return sources;
}

}  // namespace databox::registry
