#include "registry/model.h"

#include <algorithm>

namespace databox::registry {

std::vector<std::string> Source::Tables() const {
  std::vector<std::string> tables;
  for (const Resource& resource : resources) {
    tables.push_back(resource.name);
    tables.insert(tables.end(), resource.child_tables.begin(), resource.child_tables.end());
  }
  return tables;
}

const Source* Registry::FindSource(std::string_view name) const {
  auto it = std::ranges::find(sources, name, &Source::name);
  return it == sources.end() ? nullptr : &*it;
}

std::vector<std::string> Registry::SourceNames() const {
  std::vector<std::string> names;
  for (const Source& source : sources) names.push_back(source.name);
  return names;
}

std::vector<const Source*> Registry::RoutineSources() const {
  std::vector<const Source*> routine;
  for (const Source& source : sources) {
    if (source.eligibility == Eligibility::kRoutine) routine.push_back(&source);
  }
  return routine;
}

}  // namespace databox::registry
