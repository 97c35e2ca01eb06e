#include "load/normalized_tables.h"

#include <set>

#include "duck/chunk_scan.h"

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

Status NormalizedTables::Add(const registry::Resource& resource, normalize::TableBatch batch) {
  resource_of_[batch.schema.name] = &resource;
  if (IsMerge(resource)) return staging_.Append(batch);
  const std::string name = batch.schema.name;
  buffered_[name].Add(std::move(batch));
  return Ok();
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

NormalizedTable NormalizedTables::Describe(const std::string& name) const {
  NormalizedTable table;
  table.name = name;
  table.resource = resource_of_.at(name);
  if (const StagedTable* staged = Staged(name)) {
    table.schema = &staged->schema;
    const bool merge_root = IsMerge(*table.resource) && name == table.resource->name;
    table.relation = merge_root ? MergeRows(name) : staged->relation;
  } else {
    table.schema = &buffered_.at(name).schema();
    table.rows = buffered_.at(name).rows();
  }
  return table;
}

Status NormalizedTables::ForEachTable(
    const std::function<Status(const NormalizedTable&)>& visit) const {
  std::set<std::string> names;
  for (const auto& entry : staging_.tables()) names.insert(entry.first);
  for (const auto& entry : buffered_) names.insert(entry.first);
  for (const std::string& name : names) {
    if (!resource_of_.contains(name)) continue;
    NormalizedTable table = Describe(name);
    std::optional<duck::ChunkScan> scan;  // a buffered table is read through it during the call
    if (!Staged(name)) {
      scan.emplace(buffered_.at(name));
      table.relation = scan->relation();
    }
    DATABOX_RETURN_IF_ERROR(visit(table));
  }
  return Ok();
}

}  // namespace databox::load
