#include "catalog/sql/sql_catalog.h"

#include <algorithm>

#include "common/failpoint.h"
#include "fileio/location.h"
#include "iceberg/commit/commit_marker.h"
#include "iceberg/metadata/metadata_files.h"
#include "iceberg/metadata/metadata_json.h"

namespace databox::catalog::sql {
namespace {

constexpr std::string_view kSqliteUriPrefix = "sqlite:///";

//! `result`, with `context` prefixed to its error message if it failed.
template <typename T>
std::expected<T, Error> Annotate(std::expected<T, Error> result, const std::string& context) {
  if (!result) return std::unexpected(result.error().WithContext(context));
  return result;
}

bool HasAssertCreate(const iceberg::TableCommit& commit) {
  return std::ranges::any_of(commit.requirements, [](const iceberg::TableRequirement& r) {
    return std::holds_alternative<iceberg::AssertCreate>(r);
  });
}

}  // namespace

Result<std::string> SqlitePathOf(std::string_view uri) {
  if (uri.starts_with(kSqliteUriPrefix)) uri.remove_prefix(kSqliteUriPrefix.size() - 1);
  if (!uri.starts_with('/')) {
    return MakeError(ErrorKind::kConfig,
                     "SQL catalog uri '" + std::string(uri) +
                         "' is not supported; use sqlite:///<absolute path> or an absolute path");
  }
  return std::string(uri);
}

Result<std::unique_ptr<SqlCatalog>> SqlCatalog::Open(SqlCatalogOptions options,
                                                     std::shared_ptr<fileio::FileIO> io) {
  if (options.name.empty()) {
    return MakeError(ErrorKind::kConfig, "SQL catalog needs a name (catalog_name)");
  }
  if (io == nullptr) return MakeError(ErrorKind::kInternal, "SQL catalog opened without a FileIO");
  DATABOX_RETURN_IF_ERROR(Annotate(fileio::SchemeOf(options.warehouse),
                                   "SQL catalog '" + options.name + "' warehouse"));
  DATABOX_ASSIGN_OR_RETURN(std::string path, SqlitePathOf(options.uri));
  DATABOX_ASSIGN_OR_RETURN(auto store,
                           JdbcStore::Open(path, options.name, options.busy_timeout_ms));
  return std::unique_ptr<SqlCatalog>(
      new SqlCatalog(std::move(options), std::move(io), std::move(store)));
}

std::string SqlCatalog::CatalogFolder() const {
  return fileio::JoinLocation(options_.warehouse, options_.name);
}

std::string SqlCatalog::DefaultTableLocation(const iceberg::TableIdentifier& table) const {
  std::string location = CatalogFolder();
  for (const std::string& level : table.ns) location = fileio::JoinLocation(location, level);
  return fileio::JoinLocation(location, table.name);
}

bool SqlCatalog::TableFoldersAreItsOwn(std::string_view table_location) const {
  return table_location.starts_with(CatalogFolder() + "/");
}

Result<iceberg::TableMetadata> SqlCatalog::PrepareCreateTable(
    const iceberg::TableIdentifier& table, const iceberg::Schema& schema,
    const iceberg::PartitionSpec& spec, const iceberg::SortOrder& sort_order,
    const iceberg::Properties& properties) {
  return iceberg::NewTableMetadata(schema, spec, sort_order, DefaultTableLocation(table),
                                   properties);
}

Status SqlCatalog::CreateNamespace(const iceberg::Namespace& ns,
                                   const iceberg::Properties& properties) {
  DATABOX_RETURN_IF_ERROR(iceberg::ValidateNamespace(ns));
  std::lock_guard lock(store_mutex_);
  return store_->CreateNamespace(ns, properties);
}

Result<std::vector<iceberg::Namespace>> SqlCatalog::ListNamespaces(
    const iceberg::Namespace& parent) {
  DATABOX_RETURN_IF_ERROR(iceberg::ValidateNamespace(parent, /*allow_root=*/true));
  if (!parent.empty()) DATABOX_RETURN_IF_ERROR(RequireNamespace(parent));
  std::lock_guard lock(store_mutex_);
  return store_->ListNamespaces(parent);
}

Result<bool> SqlCatalog::NamespaceExists(const iceberg::Namespace& ns) {
  DATABOX_RETURN_IF_ERROR(iceberg::ValidateNamespace(ns));
  std::lock_guard lock(store_mutex_);
  return store_->NamespaceExists(ns);
}

Result<iceberg::Properties> SqlCatalog::LoadNamespaceProperties(const iceberg::Namespace& ns) {
  DATABOX_RETURN_IF_ERROR(RequireNamespace(ns));
  std::lock_guard lock(store_mutex_);
  return store_->NamespaceProperties(ns);
}

Status SqlCatalog::UpdateNamespaceProperties(const iceberg::Namespace& ns,
                                             std::span<const std::string> removals,
                                             const iceberg::Properties& updates) {
  DATABOX_RETURN_IF_ERROR(RequireNamespace(ns));
  std::lock_guard lock(store_mutex_);
  return store_->UpdateNamespaceProperties(ns, removals, updates);
}

Status SqlCatalog::DropNamespace(const iceberg::Namespace& ns) {
  DATABOX_RETURN_IF_ERROR(iceberg::ValidateNamespace(ns));
  std::lock_guard lock(store_mutex_);
  return store_->DropNamespace(ns);
}

Result<std::vector<iceberg::TableIdentifier>> SqlCatalog::ListTables(const iceberg::Namespace& ns) {
  DATABOX_RETURN_IF_ERROR(RequireNamespace(ns));
  std::lock_guard lock(store_mutex_);
  return store_->ListTables(ns);
}

Result<bool> SqlCatalog::TableExists(const iceberg::TableIdentifier& table) {
  DATABOX_ASSIGN_OR_RETURN(auto location, Locate(table));
  return location.has_value();
}

Result<iceberg::LoadedTable> SqlCatalog::LoadTable(const iceberg::TableIdentifier& table) {
  DATABOX_ASSIGN_OR_RETURN(auto location, Locate(table));
  if (!location) {
    return MakeError(
        ErrorKind::kNotFound,
        "table '" + table.ToString() + "' does not exist in catalog '" + options_.name + "'");
  }
  DATABOX_ASSIGN_OR_RETURN(auto metadata, ReadMetadata(table, *location));
  return iceberg::LoadedTable{.metadata_location = *location, .metadata = *metadata};
}

Result<iceberg::LoadedTable> SqlCatalog::CreateTable(const iceberg::TableIdentifier& table,
                                                     const iceberg::Schema& schema,
                                                     const iceberg::PartitionSpec& spec,
                                                     const iceberg::SortOrder& sort_order,
                                                     const iceberg::Properties& properties,
                                                     std::optional<std::string> location) {
  DATABOX_RETURN_IF_ERROR(iceberg::ValidateTableIdentifier(table));
  DATABOX_RETURN_IF_ERROR(RequireNamespace(table.ns));
  DATABOX_ASSIGN_OR_RETURN(auto existing, Locate(table));
  if (existing) {
    return MakeError(
        ErrorKind::kAlreadyExists,
        "table '" + table.ToString() + "' already exists in catalog '" + options_.name + "'");
  }
  DATABOX_ASSIGN_OR_RETURN(
      iceberg::TableMetadata metadata,
      iceberg::NewTableMetadata(schema, spec, sort_order,
                                location.value_or(DefaultTableLocation(table)), properties));
  std::string metadata_location = iceberg::NewMetadataLocation(metadata, std::nullopt);
  DATABOX_RETURN_IF_ERROR(
      io_->WriteNew(metadata_location, iceberg::TableMetadataToJsonString(metadata)));
  {
    std::lock_guard lock(store_mutex_);
    DATABOX_RETURN_IF_ERROR(store_->InsertTable(table, metadata_location));
  }
  MarkCommitted(std::vector<LocationSwap>{LocationSwap{table, std::nullopt, metadata_location}});
  return iceberg::LoadedTable{.metadata_location = metadata_location,
                              .metadata = std::move(metadata)};
}

Result<SqlCatalog::Staged> SqlCatalog::Stage(const iceberg::TableCommit& commit) {
  const iceberg::TableIdentifier& table = commit.identifier;
  DATABOX_RETURN_IF_ERROR(iceberg::ValidateTableIdentifier(table));
  DATABOX_ASSIGN_OR_RETURN(auto current_location, Locate(table));
  std::shared_ptr<const iceberg::TableMetadata> current;
  if (current_location) {
    DATABOX_ASSIGN_OR_RETURN(current, ReadMetadata(table, *current_location));
  } else if (!HasAssertCreate(commit)) {
    return MakeError(ErrorKind::kNotFound, "cannot commit to table '" + table.ToString() +
                                               "': it does not exist in catalog '" + options_.name +
                                               "'; create it (assert-create) first");
  } else {
    DATABOX_RETURN_IF_ERROR(RequireNamespace(table.ns));
  }
  const iceberg::TableMetadata* base = current.get();
  std::string context = "committing to '" + table.ToString() + "'";
  DATABOX_RETURN_IF_ERROR(Annotate(iceberg::CheckRequirements(base, commit.requirements), context));
  if (current && commit.updates.empty()) {
    // Nothing to change: the swap re-asserts that the table is still at this version.
    return Staged{.swap = {table, current_location, *current_location},
                  .result = {*current_location, *current}};
  }
  DATABOX_ASSIGN_OR_RETURN(iceberg::TableMetadata next,
                           Annotate(iceberg::ApplyUpdates(base, commit.updates), context));
  if (next.location.empty()) next.location = DefaultTableLocation(table);
  if (current) {
    DATABOX_RETURN_IF_ERROR(Annotate(
        iceberg::AppendMetadataLog(next, *current_location, current->last_updated_ms), context));
  }
  std::string next_location = iceberg::NewMetadataLocation(next, current_location);
  DATABOX_RETURN_IF_ERROR(
      Annotate(io_->WriteNew(next_location, iceberg::TableMetadataToJsonString(next)), context));
  auto written = std::make_shared<const iceberg::TableMetadata>(std::move(next));
  Remember(next_location, written);
  return Staged{.swap = {table, current_location, next_location},
                .result = {next_location, *written}};
}

Result<iceberg::LoadedTable> SqlCatalog::CommitTable(const iceberg::TableCommit& commit) {
  DATABOX_ASSIGN_OR_RETURN(Staged staged, Stage(commit));
  Failpoint("before-catalog-swap");
  {
    std::lock_guard lock(store_mutex_);
    DATABOX_RETURN_IF_ERROR(store_->SwapMetadataLocation(staged.swap));
  }
  MarkCommitted(std::vector<LocationSwap>{staged.swap});
  return std::move(staged.result);
}

Result<std::vector<iceberg::LoadedTable>> SqlCatalog::CommitTransaction(
    std::span<const iceberg::TableCommit> commits) {
  for (size_t i = 0; i < commits.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (commits[i].identifier == commits[j].identifier) {
        return MakeError(ErrorKind::kConfig, "transaction commits table '" +
                                                 commits[i].identifier.ToString() +
                                                 "' twice; merge its updates into one commit");
      }
    }
  }
  std::vector<LocationSwap> swaps;
  std::vector<iceberg::LoadedTable> results;
  for (const iceberg::TableCommit& commit : commits) {
    DATABOX_ASSIGN_OR_RETURN(Staged staged, Stage(commit));
    swaps.push_back(std::move(staged.swap));
    results.push_back(std::move(staged.result));
  }
  Failpoint("before-catalog-swap");
  {
    std::lock_guard lock(store_mutex_);
    DATABOX_RETURN_IF_ERROR(store_->SwapMetadataLocations(swaps));
  }
  MarkCommitted(swaps);
  return results;
}

Status SqlCatalog::DropTable(const iceberg::TableIdentifier& table) {
  DATABOX_RETURN_IF_ERROR(iceberg::ValidateTableIdentifier(table));
  std::lock_guard lock(store_mutex_);
  return store_->DropTable(table);
}

Status SqlCatalog::RenameTable(const iceberg::TableIdentifier& from,
                               const iceberg::TableIdentifier& to) {
  DATABOX_RETURN_IF_ERROR(iceberg::ValidateTableIdentifier(from));
  DATABOX_RETURN_IF_ERROR(iceberg::ValidateTableIdentifier(to));
  DATABOX_RETURN_IF_ERROR(RequireNamespace(to.ns));
  std::lock_guard lock(store_mutex_);
  return store_->RenameTable(from, to);
}

Result<iceberg::LoadedTable> SqlCatalog::RegisterTable(const iceberg::TableIdentifier& table,
                                                       std::string_view metadata_location) {
  DATABOX_RETURN_IF_ERROR(iceberg::ValidateTableIdentifier(table));
  DATABOX_RETURN_IF_ERROR(RequireNamespace(table.ns));
  std::string location(metadata_location);
  DATABOX_ASSIGN_OR_RETURN(auto metadata, ReadMetadata(table, location));
  {
    std::lock_guard lock(store_mutex_);
    DATABOX_RETURN_IF_ERROR(store_->InsertTable(table, location));
  }
  MarkCommitted(std::vector<LocationSwap>{LocationSwap{table, std::nullopt, location}});
  return iceberg::LoadedTable{.metadata_location = std::move(location), .metadata = *metadata};
}

Result<std::optional<std::string>> SqlCatalog::Locate(const iceberg::TableIdentifier& table) {
  DATABOX_RETURN_IF_ERROR(iceberg::ValidateTableIdentifier(table));
  std::lock_guard lock(store_mutex_);
  return store_->MetadataLocation(table);
}

Result<std::shared_ptr<const iceberg::TableMetadata>> SqlCatalog::ReadMetadata(
    const iceberg::TableIdentifier& table, const std::string& location) {
  {
    std::lock_guard lock(cache_mutex_);
    for (const auto& [cached_location, metadata] : cache_) {
      if (cached_location == location) return metadata;
    }
  }
  std::string context =
      "reading metadata of table '" + table.ToString() + "' at '" + location + "'";
  DATABOX_ASSIGN_OR_RETURN(std::string text, Annotate(io_->Read(location), context));
  DATABOX_ASSIGN_OR_RETURN(iceberg::TableMetadata metadata,
                           Annotate(iceberg::ParseTableMetadata(text), context));
  auto parsed = std::make_shared<const iceberg::TableMetadata>(std::move(metadata));
  Remember(location, parsed);
  return parsed;
}

void SqlCatalog::MarkCommitted(const std::vector<LocationSwap>& swaps) {
  std::vector<TablePointer> changed;
  for (const LocationSwap& swap : swaps) {
    if (swap.expected != swap.next) changed.push_back({swap.table, swap.next});
  }
  if (changed.empty()) return;
  Failpoint("before-commit-marker");
  // The commit has landed whatever happens here: a marker that cannot be written leaves the
  // file unconfirmed until the table's next commit lists it in its metadata-log, which
  // recovery reports; failing the commit would make the caller believe it did not happen.
  (void)iceberg::WriteCommitMarker(*io_, options_.warehouse, options_.name, changed);
}

void SqlCatalog::Remember(const std::string& location,
                          std::shared_ptr<const iceberg::TableMetadata> metadata) {
  std::lock_guard lock(cache_mutex_);
  for (const auto& entry : cache_) {
    if (entry.first == location) return;
  }
  if (cache_.size() >= kCachedMetadataFiles) cache_.pop_front();
  cache_.emplace_back(location, std::move(metadata));
}

Status SqlCatalog::RequireNamespace(const iceberg::Namespace& ns) {
  DATABOX_RETURN_IF_ERROR(iceberg::ValidateNamespace(ns));
  std::lock_guard lock(store_mutex_);
  DATABOX_ASSIGN_OR_RETURN(bool exists, store_->NamespaceExists(ns));
  if (!exists) {
    return MakeError(ErrorKind::kNotFound, "namespace '" + iceberg::NamespaceToString(ns) +
                                               "' does not exist in catalog '" + options_.name +
                                               "'; create it first");
  }
  return Ok();
}

}  // namespace databox::catalog::sql
