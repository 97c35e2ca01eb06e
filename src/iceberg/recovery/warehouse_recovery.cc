#include "iceberg/recovery/warehouse_recovery.h"

#include <algorithm>
#include <cctype>
#include <map>

namespace databox::iceberg {
namespace {

constexpr std::string_view kMetadataFolder = "/metadata/";
constexpr std::string_view kMetadataSuffix = ".metadata.json";

//! "birds_33d8aad1-b8d7-49e9-a482-5a7427a2e406" -> "birds"; other names unchanged.
std::string WithoutUuidSuffix(const std::string& name) {
  constexpr size_t kUuid = 36;
  if (name.size() < kUuid + 2 || name[name.size() - kUuid - 1] != '_') return name;
  const std::string_view uuid = std::string_view(name).substr(name.size() - kUuid);
  for (size_t i = 0; i < kUuid; ++i) {
    const bool dash = i == 8 || i == 13 || i == 18 || i == 23;
    const char c = uuid[i];
    if (dash ? c != '-' : !std::isxdigit(static_cast<unsigned char>(c))) return name;
  }
  return name.substr(0, name.size() - kUuid - 1);
}

//! The table a metadata file belongs to, from its path below `root` ("…/ns/t/
//! metadata/00001-x.metadata.json" -> ns.t); nullopt for anything else.
std::optional<TableIdentifier> TableOf(std::string_view location, std::string_view root,
                                       const FolderLayout& layout) {
  if (!location.starts_with(root) || !location.ends_with(kMetadataSuffix)) return std::nullopt;
  std::string_view rest = location.substr(root.size());
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
  TableIdentifier table;
  table.name = parts.back();
  parts.pop_back();
  if (layout.uuid_suffixed_folders) table.name = WithoutUuidSuffix(table.name);
  if (layout.names != nullptr) table.name = layout.names->FromServer(table.name);
  table.ns = std::move(parts);
  if (!ValidateTableIdentifier(table)) return std::nullopt;
  return table;
}

bool LogNames(const TableMetadata& metadata, const std::string& location) {
  return std::ranges::any_of(metadata.metadata_log,
                             [&](const auto& e) { return e.metadata_file == location; });
}

//! Decides (and with `apply` writes) one table's pointer.
Status Settle(RecoveryTarget& target, TableRecovery& out, const MetadataChoice& choice,
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
    DATABOX_RETURN_IF_ERROR(target.Register(out.table, chosen));
    out.applied = true;
    return Ok();
  }
  if (*out.catalog_had == chosen) {
    out.action = RecoveryAction::kUpToDate;
    return Ok();
  }
  if (!LogNames(*choice.metadata, *out.catalog_had)) {
    out.action = RecoveryAction::kKept;
    out.note =
        "the chosen file's metadata-log does not name the catalog's file, so it is not known to "
        "descend from it (a server that keeps no metadata-log, like Nessie, never names it); "
        "left alone";
    return Ok();
  }
  if (!options.roll_forward) {
    out.action = RecoveryAction::kKept;
    out.note = "the catalog points at an older version; --roll-forward moves it to the chosen one";
    return Ok();
  }
  std::string why;
  if (!target.CanMoveForward(why)) {
    out.action = RecoveryAction::kKept;
    out.note = "the catalog points at an older version; " + why;
    return Ok();
  }
  out.action = RecoveryAction::kRollForward;
  if (!options.apply) return Ok();
  DATABOX_RETURN_IF_ERROR(target.MoveForward(out.table, *out.catalog_had, chosen));
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

Result<std::vector<TableFolder>> FindTableFolders(fileio::FileIO& io, const std::string& root,
                                                  const FolderLayout& layout) {
  const std::string folder = root.ends_with('/') ? root : root + "/";
  DATABOX_ASSIGN_OR_RETURN(auto listed, io.List(folder));
  std::map<std::string, TableFolder> folders;
  for (const fileio::FileInfo& file : listed) {
    auto table = TableOf(file.location, folder, layout);
    if (!table) continue;
    auto& entry = folders[table->ToString()];
    entry.table = *table;
    entry.metadata_files.push_back(file.location);
  }
  std::vector<TableFolder> out;
  out.reserve(folders.size());
  for (auto& [name, entry] : folders) out.push_back(std::move(entry));
  return out;
}

Result<WarehouseRecovery> RecoverTables(RecoveryTarget& target, fileio::FileIO& io,
                                        std::span<const TableFolder> folders,
                                        const std::set<std::string>& marker_confirmed,
                                        const RecoveryOptions& options) {
  WarehouseRecovery result;
  for (const TableFolder& folder : folders) {
    TableRecovery out;
    out.table = folder.table;
    out.metadata_files = folder.metadata_files.size();
    result.metadata_files += folder.metadata_files.size();
    DATABOX_ASSIGN_OR_RETURN(out.catalog_had, target.MetadataLocation(out.table));
    DATABOX_ASSIGN_OR_RETURN(
        MetadataChoice choice,
        ChooseMetadataFile(io, folder.metadata_files, marker_confirmed,
                           {.include_unconfirmed = options.include_unconfirmed}));
    out.chosen = choice.location;
    out.confirmed_by = choice.confirmed_by;
    out.refused = choice.refused;
    if (choice.metadata) out.snapshot_id = choice.metadata->current_snapshot_id;
    DATABOX_RETURN_IF_ERROR(Settle(target, out, choice, options));
    result.tables.push_back(std::move(out));
  }
  return result;
}

}  // namespace databox::iceberg
