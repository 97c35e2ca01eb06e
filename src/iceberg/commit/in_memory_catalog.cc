#include "iceberg/commit/in_memory_catalog.h"

#include <algorithm>

#include "fileio/location.h"
#include "iceberg/metadata/metadata_files.h"
#include "iceberg/metadata/metadata_json.h"

namespace databox::iceberg {
namespace {

bool HasAssertCreate(const TableCommit& commit) {
  return std::ranges::any_of(commit.requirements, [](const TableRequirement& r) {
    return std::holds_alternative<AssertCreate>(r);
  });
}

Error TableNotFound(const TableIdentifier& table, std::string_view catalog) {
  return Error{
      ErrorKind::kNotFound,
      "table '" + table.ToString() + "' does not exist in catalog '" + std::string(catalog) + "'"};
}

}  // namespace

InMemoryCatalog::InMemoryCatalog(std::string name, std::string warehouse,
                                 std::shared_ptr<fileio::FileIO> io)
    : name_(std::move(name)), warehouse_(std::move(warehouse)), io_(std::move(io)) {}

std::string InMemoryCatalog::DefaultTableLocation(const TableIdentifier& table) const {
  std::string location = warehouse_;
  for (const std::string& level : table.ns) location = fileio::JoinLocation(location, level);
  return fileio::JoinLocation(location, table.name);
}

Status InMemoryCatalog::RequireNamespace(const Namespace& ns) const {
  DATABOX_RETURN_IF_ERROR(ValidateNamespace(ns));
  if (!namespaces_.contains(ns)) {
    return MakeError(ErrorKind::kNotFound, "namespace '" + NamespaceToString(ns) +
                                               "' does not exist in catalog '" + name_ +
                                               "'; create it first");
  }
  return Ok();
}

Status InMemoryCatalog::CreateNamespace(const Namespace& ns, const Properties& properties) {
  DATABOX_RETURN_IF_ERROR(ValidateNamespace(ns));
  std::lock_guard lock(mutex_);
  if (!namespaces_.emplace(ns, properties).second) {
    return MakeError(ErrorKind::kAlreadyExists,
                     "namespace '" + NamespaceToString(ns) + "' already exists");
  }
  return Ok();
}

Result<std::vector<Namespace>> InMemoryCatalog::ListNamespaces(const Namespace& parent) {
  DATABOX_RETURN_IF_ERROR(ValidateNamespace(parent, /*allow_root=*/true));
  std::lock_guard lock(mutex_);
  std::vector<Namespace> out;
  for (const auto& [ns, properties] : namespaces_) {
    if (ns.size() == parent.size() + 1 && std::equal(parent.begin(), parent.end(), ns.begin())) {
      out.push_back(ns);
    }
  }
  return out;
}

Result<bool> InMemoryCatalog::NamespaceExists(const Namespace& ns) {
  DATABOX_RETURN_IF_ERROR(ValidateNamespace(ns));
  std::lock_guard lock(mutex_);
  return namespaces_.contains(ns);
}

Result<Properties> InMemoryCatalog::LoadNamespaceProperties(const Namespace& ns) {
  std::lock_guard lock(mutex_);
  DATABOX_RETURN_IF_ERROR(RequireNamespace(ns));
  return namespaces_.at(ns);
}

Status InMemoryCatalog::UpdateNamespaceProperties(const Namespace& ns,
                                                  std::span<const std::string> removals,
                                                  const Properties& updates) {
  std::lock_guard lock(mutex_);
  DATABOX_RETURN_IF_ERROR(RequireNamespace(ns));
  Properties& properties = namespaces_.at(ns);
  for (const std::string& key : removals) properties.erase(key);
  for (const auto& [key, value] : updates) properties[key] = value;
  return Ok();
}

Status InMemoryCatalog::DropNamespace(const Namespace& ns) {
  std::lock_guard lock(mutex_);
  DATABOX_RETURN_IF_ERROR(RequireNamespace(ns));
  const bool has_children = std::ranges::any_of(namespaces_, [&](const auto& entry) {
    return entry.first.size() > ns.size() && std::equal(ns.begin(), ns.end(), entry.first.begin());
  });
  const bool has_tables =
      std::ranges::any_of(tables_, [&](const auto& entry) { return entry.first.ns == ns; });
  if (has_children || has_tables) {
    return MakeError(ErrorKind::kConflict,
                     "namespace '" + NamespaceToString(ns) + "' is not empty");
  }
  namespaces_.erase(ns);
  return Ok();
}

Result<std::vector<TableIdentifier>> InMemoryCatalog::ListTables(const Namespace& ns) {
  std::lock_guard lock(mutex_);
  DATABOX_RETURN_IF_ERROR(RequireNamespace(ns));
  std::vector<TableIdentifier> out;
  for (const auto& [table, loaded] : tables_) {
    if (table.ns == ns) out.push_back(table);
  }
  return out;
}

Result<bool> InMemoryCatalog::TableExists(const TableIdentifier& table) {
  DATABOX_RETURN_IF_ERROR(ValidateTableIdentifier(table));
  std::lock_guard lock(mutex_);
  return tables_.contains(table);
}

Result<LoadedTable> InMemoryCatalog::LoadTable(const TableIdentifier& table) {
  DATABOX_RETURN_IF_ERROR(ValidateTableIdentifier(table));
  std::lock_guard lock(mutex_);
  auto it = tables_.find(table);
  if (it == tables_.end()) return std::unexpected(TableNotFound(table, name_));
  return it->second;
}

Result<TableMetadata> InMemoryCatalog::PrepareCreateTable(const TableIdentifier& table,
                                                          const Schema& schema,
                                                          const PartitionSpec& spec,
                                                          const SortOrder& sort_order,
                                                          const Properties& properties) {
  return NewTableMetadata(schema, spec, sort_order, DefaultTableLocation(table), properties);
}

Result<LoadedTable> InMemoryCatalog::CreateTable(const TableIdentifier& table, const Schema& schema,
                                                 const PartitionSpec& spec,
                                                 const SortOrder& sort_order,
                                                 const Properties& properties,
                                                 std::optional<std::string> location) {
  DATABOX_RETURN_IF_ERROR(ValidateTableIdentifier(table));
  std::lock_guard lock(mutex_);
  DATABOX_RETURN_IF_ERROR(RequireNamespace(table.ns));
  if (tables_.contains(table)) {
    return MakeError(ErrorKind::kAlreadyExists, "table '" + table.ToString() + "' already exists");
  }
  DATABOX_ASSIGN_OR_RETURN(
      TableMetadata metadata,
      NewTableMetadata(schema, spec, sort_order, location.value_or(DefaultTableLocation(table)),
                       properties));
  std::string metadata_location = NewMetadataLocation(metadata, std::nullopt);
  DATABOX_RETURN_IF_ERROR(io_->WriteNew(metadata_location, TableMetadataToJsonString(metadata)));
  LoadedTable loaded{.metadata_location = std::move(metadata_location),
                     .metadata = std::move(metadata)};
  tables_.emplace(table, loaded);
  return loaded;
}

Result<InMemoryCatalog::Staged> InMemoryCatalog::Stage(const TableCommit& commit) {
  const TableIdentifier& table = commit.identifier;
  DATABOX_RETURN_IF_ERROR(ValidateTableIdentifier(table));
  const LoadedTable* current = nullptr;
  if (auto it = tables_.find(table); it != tables_.end()) {
    current = &it->second;
  } else if (!HasAssertCreate(commit)) {
    return MakeError(ErrorKind::kNotFound, "cannot commit to table '" + table.ToString() +
                                               "': it does not exist; create it first");
  } else {
    DATABOX_RETURN_IF_ERROR(RequireNamespace(table.ns));
  }
  const TableMetadata* base = current ? &current->metadata : nullptr;
  DATABOX_RETURN_IF_ERROR(CheckRequirements(base, commit.requirements));
  std::optional<std::string> base_location;
  if (current) base_location = current->metadata_location;
  if (current && commit.updates.empty()) {
    return Staged{.table = table, .base_location = base_location, .result = *current};
  }
  DATABOX_ASSIGN_OR_RETURN(TableMetadata next, ApplyUpdates(base, commit.updates));
  if (next.location.empty()) next.location = DefaultTableLocation(table);
  if (current) {
    DATABOX_RETURN_IF_ERROR(
        AppendMetadataLog(next, current->metadata_location, current->metadata.last_updated_ms));
  }
  std::string next_location = NewMetadataLocation(next, base_location);
  DATABOX_RETURN_IF_ERROR(io_->WriteNew(next_location, TableMetadataToJsonString(next)));
  return Staged{.table = table,
                .base_location = base_location,
                .result = LoadedTable{.metadata_location = std::move(next_location),
                                      .metadata = std::move(next)}};
}

Result<LoadedTable> InMemoryCatalog::CommitTable(const TableCommit& commit) {
  std::lock_guard lock(mutex_);
  DATABOX_ASSIGN_OR_RETURN(Staged staged, Stage(commit));
  tables_.insert_or_assign(staged.table, staged.result);
  return std::move(staged.result);
}

Result<std::vector<LoadedTable>> InMemoryCatalog::CommitTransaction(
    std::span<const TableCommit> commits) {
  std::lock_guard lock(mutex_);
  std::vector<Staged> staged;
  for (const TableCommit& commit : commits) {
    if (refuse_creates_ && !tables_.contains(commit.identifier)) {
      refused_creates_ = true;
      return MakeError(ErrorKind::kNotFound, "table '" + commit.identifier.ToString() +
                                                 "' does not exist (this catalog loads every "
                                                 "table of a transaction first)");
    }
    for (const Staged& earlier : staged) {
      if (earlier.table == commit.identifier) {
        return MakeError(ErrorKind::kConfig, "transaction commits table '" +
                                                 commit.identifier.ToString() +
                                                 "' twice; merge its updates into one commit");
      }
    }
    DATABOX_ASSIGN_OR_RETURN(Staged one, Stage(commit));
    staged.push_back(std::move(one));
  }
  std::vector<LoadedTable> results;
  for (Staged& one : staged) {
    tables_.insert_or_assign(one.table, one.result);
    results.push_back(std::move(one.result));
  }
  return results;
}

Status InMemoryCatalog::DropTable(const TableIdentifier& table) {
  DATABOX_RETURN_IF_ERROR(ValidateTableIdentifier(table));
  std::lock_guard lock(mutex_);
  if (tables_.erase(table) == 0) return std::unexpected(TableNotFound(table, name_));
  return Ok();
}

Status InMemoryCatalog::RenameTable(const TableIdentifier& from, const TableIdentifier& to) {
  DATABOX_RETURN_IF_ERROR(ValidateTableIdentifier(from));
  DATABOX_RETURN_IF_ERROR(ValidateTableIdentifier(to));
  std::lock_guard lock(mutex_);
  DATABOX_RETURN_IF_ERROR(RequireNamespace(to.ns));
  auto it = tables_.find(from);
  if (it == tables_.end()) return std::unexpected(TableNotFound(from, name_));
  if (tables_.contains(to)) {
    return MakeError(ErrorKind::kAlreadyExists, "table '" + to.ToString() + "' already exists");
  }
  LoadedTable loaded = std::move(it->second);
  tables_.erase(it);
  tables_.emplace(to, std::move(loaded));
  return Ok();
}

Result<LoadedTable> InMemoryCatalog::RegisterTable(const TableIdentifier& table,
                                                   std::string_view metadata_location) {
  DATABOX_RETURN_IF_ERROR(ValidateTableIdentifier(table));
  DATABOX_ASSIGN_OR_RETURN(std::string text, io_->Read(metadata_location));
  DATABOX_ASSIGN_OR_RETURN(TableMetadata metadata, ParseTableMetadata(text));
  std::lock_guard lock(mutex_);
  DATABOX_RETURN_IF_ERROR(RequireNamespace(table.ns));
  if (tables_.contains(table)) {
    return MakeError(ErrorKind::kAlreadyExists, "table '" + table.ToString() + "' already exists");
  }
  LoadedTable loaded{.metadata_location = std::string(metadata_location),
                     .metadata = std::move(metadata)};
  tables_.emplace(table, loaded);
  return loaded;
}

}  // namespace databox::iceberg
