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

}  // namespace

std::string FormatSourcesTable(const Registry& registry) {
  const std::vector<std::string> header = {"SOURCE", "ELIGIBILITY", "KIND", "NAMESPACE", "TABLES"};
  std::vector<std::vector<std::string>> rows = {header};
  for (const Source& source : registry.sources) {
    rows.push_back({source.name, std::string(ToString(source.eligibility)),
                    std::string(ToString(source.kind)), source.Namespace(),
                    Join(source.Tables(), ", ")});
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

nlohmann::json SourcesToJson(const Registry& registry) {
  nlohmann::json sources = nlohmann::json::array();
  for (const Source& source : registry.sources) {
    sources.push_back({{"name", source.name},
                       {"eligibility", ToString(source.eligibility)},
                       {"kind", ToString(source.kind)},
                       {"namespace", source.Namespace()},
                       {"tables", source.Tables()}});
  }
  return sources;
}

}  // namespace databox::registry
