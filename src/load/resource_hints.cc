#include "load/resource_hints.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "source/extractor.h"

namespace databox::load {
Result<normalize::ResourceHints> HintsFor(const registry::Source& source,
                                          const registry::Resource& resource) {
  normalize::ResourceHints hints;
  hints.resource = resource.name;
  hints.table_name = resource.name;
  hints.write_disposition = resource.write_disposition;
  hints.primary_key = resource.primary_key;
  std::vector<std::pair<std::string, registry::ColumnHint>> ordered;
  for (const std::string& name : resource.column_order) {
    if (auto it = resource.columns.find(name); it != resource.columns.end()) {
      ordered.emplace_back(name, it->second);
    }
  }
  for (const auto& [name, hint] : resource.columns) {
    if (std::ranges::find(resource.column_order, name) == resource.column_order.end()) {
      ordered.emplace_back(name, hint);
    }
  }
  for (const auto& [name, hint] : ordered) {
    normalize::ColumnHint column;
    column.name = name;
    if (!hint.type.empty()) {
      column.data_type = normalize::ParseDataType(hint.type);
      if (!column.data_type) {
        return MakeError(ErrorKind::kConfig, source::ResourceLabel(source, resource) + ": column " +
                                                 name + " has unknown type " + hint.type);
      }
    }
    column.nullable = hint.nullable;
    hints.columns.push_back(std::move(column));
  }
  return hints;
}

}  // namespace databox::load
