#include "catalog/sql/warehouse_recovery.h"

#include <algorithm>
#include <map>

#include "catalog/sql/commit_marker.h"
#include "fileio/location.h"

namespace databox::catalog::sql {
namespace {

constexpr std::string_view kMetadataFolder = "/metadata/";
constexpr std::string_view kMetadataSuffix = ".metadata.json";

//! The table a metadata file belongs to, from its path below `catalog_folder` ("…/ns/t/
//! metadata/00001-x.metadata.json" -> ns.t); nullopt for anything else.
std::optional<iceberg::TableIdentifier> TableOf(std::string_view location,
                                                std::string_view catalog_folder) {
  if (!location.starts_with(catalog_folder) || !location.ends_with(kMetadataSuffix)) {
    return std::nullopt;
  }
  std::string_view rest = location.substr(catalog_folder.size());
  const size_t metadata = rest.rfind(kMetadataFolder);
  if (metadata == std::string_view::npos ||
      rest.find('/', metadata + kMetadataFolder.size()) != std::string_view::npos) {
    return std::nullopt;
  }
  std::vector<std::string> parts;
  std::string_view folder = rest.substr(0, metadata);
  while (!folder.empty()) {
    const size_t slash = folder.find('/');
    parts.emplace_back(folder.substr(0, slash));
    folder = slash == std::string_view::npos ? std::string_view{} : folder.substr(slash + 1);
  }
  if (parts.size() < 2 || std::ranges::any_of(parts, [](const auto& p) { return p.empty(); })) {
    return std::nullopt;
  }
  iceberg::TableIdentifier table;
  table.name = parts.back();
  parts.pop_back();
  table.ns = std::move(parts);
  if (!iceberg::ValidateTableIdentifier(table)) return std::nullopt;
  return table;
}

bool LogNames(const iceberg::TableMetadata& metadata, const std::string& location) {
  return std::ranges::any_of(metadata.metadata_log,
                             [&](const auto& e) { return e.metadata_file == location; });
}

Status EnsureNamespace(JdbcStore& store, const iceberg::Namespace& ns) {
  DATABOX_ASSIGN_OR_RETURN(bool exists, store.NamespaceExists(ns));
  if (exists) return Ok();
  return store.CreateNamespace(ns, {});
}

//! Decides (and with `apply` writes) one table's row.
Status Settle(JdbcStore& store, TableRecovery& out, const iceberg::MetadataChoice& choice,
              const RecoveryOptions& options) {
  if (!choice.location) {
    out.action = RecoveryAction::kNotRecovered;
    out.note = out.catalog_had ? "no metadata file qualifies; the catalog's entry is left"
                               : "no metadata file qualifies";
    return Ok();
  }
  const std::string& chosen = *choice.location;
  if (!out.catalog_had) {
    out.action = RecoveryAction::kRegister;
    if (!options.apply) return Ok();
    DATABOX_RETURN_IF_ERROR(EnsureNamespace(store, out.table.ns));
    DATABOX_RETURN_IF_ERROR(store.InsertTable(out.table, chosen));
    out.applied = true;
    return Ok();
  }
  if (*out.catalog_had == chosen) {
    out.action = RecoveryAction::kUpToDate;
    return Ok();
  }
  if (!LogNames(*choice.metadata, *out.catalog_had)) {
    out.action = RecoveryAction::kKept;
    out.note = "the catalog points at a file the chosen one does not descend from; left alone";
    return Ok();
  }
  if (!options.roll_forward) {
    out.action = RecoveryAction::kKept;
    out.note = "the catalog points at an older version; --roll-forward moves it to the chosen one";
    return Ok();
  }
  out.action = RecoveryAction::kRollForward;
  if (!options.apply) return Ok();
  DATABOX_RETURN_IF_ERROR(store.SwapMetadataLocation({out.table, out.catalog_had, chosen}));
  out.applied = true;
  return Ok();
}

}  // namespace

std::string_view RecoveryActionName(RecoveryAction action) {
  switch (action) {
    case RecoveryAction::kRegister:
      return "register";
    case RecoveryAction::kRollForward:
      return "roll forward";
    case RecoveryAction::kUpToDate:
      return "up to date";
    case RecoveryAction::kKept:
      return "kept";
    case RecoveryAction::kNotRecovered:
      return "not recovered";
  }
  return "?";
}

Result<WarehouseRecovery> RecoverFromWarehouse(JdbcStore& store, fileio::FileIO& io,
                                               const std::string& warehouse,
                                               const RecoveryOptions& options) {
  const std::string catalog_folder = fileio::JoinLocation(warehouse, store.catalog_name()) + "/";
  DATABOX_ASSIGN_OR_RETURN(auto listed, io.List(catalog_folder));
  std::map<std::string, std::pair<iceberg::TableIdentifier, std::vector<std::string>>> folders;
  for (const fileio::FileInfo& file : listed) {
    auto table = TableOf(file.location, catalog_folder);
    if (!table) continue;
    auto& entry = folders[table->ToString()];
    entry.first = *table;
    entry.second.push_back(file.location);
  }
  DATABOX_ASSIGN_OR_RETURN(CommitMarkers markers,
                           ReadCommitMarkers(io, warehouse, store.catalog_name()));
  WarehouseRecovery result;
  result.marker_files = markers.files;
  result.unreadable_markers = markers.unreadable;
  std::vector<TablePointer> marked;
  for (auto& [name, entry] : folders) {
    TableRecovery out;
    out.table = entry.first;
    out.metadata_files = entry.second.size();
    result.metadata_files += entry.second.size();
    DATABOX_ASSIGN_OR_RETURN(out.catalog_had, store.MetadataLocation(out.table));
    DATABOX_ASSIGN_OR_RETURN(
        iceberg::MetadataChoice choice,
        iceberg::ChooseMetadataFile(io, entry.second, markers.committed,
                                    {.include_unconfirmed = options.include_unconfirmed}));
    out.chosen = choice.location;
    out.confirmed_by = choice.confirmed_by;
    out.refused = choice.refused;
    if (choice.metadata) out.snapshot_id = choice.metadata->current_snapshot_id;
    DATABOX_RETURN_IF_ERROR(Settle(store, out, choice, options));
    if (out.applied) marked.push_back({out.table, *out.chosen});
    result.tables.push_back(std::move(out));
  }
  // What recovery pointed the catalog at is committed now: marked so, like any commit.
  (void)WriteCommitMarker(io, warehouse, store.catalog_name(), marked);
  return result;
}

}  // namespace databox::catalog::sql
