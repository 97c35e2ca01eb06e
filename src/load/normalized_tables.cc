#include "load/normalized_tables.h"

namespace databox::load {
namespace {

bool IsMerge(const registry::Resource& resource) {
  return resource.write_disposition == registry::WriteDisposition::kMerge;
}

}  // namespace

Result<NormalizedTables> NormalizedTables::Make(duck::Connection* conn) {
  DATABOX_ASSIGN_OR_RETURN(auto staging, StagingArea::Make(conn, "stage"));
  return NormalizedTables(std::move(staging));
}

Status NormalizedTables::Add(const registry::Resource& resource,
                             const normalize::TableBatch& batch) {
  if (!IsMerge(resource)) {
    return MakeError(ErrorKind::kInternal, "resource " + resource.name +
                                               " is not a merge resource: its rows are streamed "
                                               "to data files, not staged");
  }
  resource_of_[batch.schema.name] = &resource;
  return staging_.Append(batch);
}

const StagedTable* NormalizedTables::Staged(const std::string& name) const {
  auto staged = staging_.tables().find(name);
  return staged == staging_.tables().end() ? nullptr : &staged->second;
}

std::vector<const StagedTable*> NormalizedTables::StagedChildren(
    const registry::Resource& resource) const {
  std::vector<const StagedTable*> children;
  for (const auto& [table, owner] : resource_of_) {
    if (owner != &resource || table == resource.name) continue;
    children.push_back(&staging_.tables().at(table));
  }
  return children;
}

std::vector<NormalizedTable> NormalizedTables::Tables() const {
  std::vector<NormalizedTable> tables;
  for (const auto& [name, staged] : staging_.tables()) {  // a std::map: in name order
    auto owner = resource_of_.find(name);
    if (owner == resource_of_.end()) continue;
    NormalizedTable table;
    table.name = name;
    table.resource = owner->second;
    table.schema = &staged.schema;
    table.relation = name == table.resource->name ? MergeRows(name) : staged.relation;
    tables.push_back(std::move(table));
  }
  return tables;
}

}  // namespace databox::load
