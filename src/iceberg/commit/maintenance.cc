#include "iceberg/commit/maintenance.h"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

#include "fileio/location.h"
#include "iceberg/manifest/manifest.h"
#include "iceberg/manifest/manifest_list.h"
#include "iceberg/metadata/metadata_json.h"
#include "iceberg/produce/snapshot_producer.h"

namespace databox::iceberg {
namespace {

//! Metadata JSON arrays whose entries name a statistics file ("statistics-path").
constexpr const char* kStatisticsArrays[] = {"statistics", "partition-statistics"};
//! Folders of a table that maintenance lists.
constexpr const char* kTableFolders[] = {"data/", "metadata/"};

//! Statistics files named by the metadata file at `location` (our TableMetadata does not model
//! them, so they are read from the JSON itself).
Result<std::vector<std::string>> StatisticsFiles(fileio::FileIO& io, const std::string& location) {
  DATABOX_ASSIGN_OR_RETURN(std::string text, io.Read(location));
  nlohmann::json json = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!json.is_object()) {
    return MakeError(ErrorKind::kData, "metadata file " + location + " is not a JSON object");
  }
  std::vector<std::string> out;
  for (const char* key : kStatisticsArrays) {
    auto it = json.find(key);
    if (it == json.end() || !it->is_array()) continue;
    for (const auto& entry : *it) {
      if (!entry.is_object()) continue;
      auto path = entry.find("statistics-path");
      if (path != entry.end() && path->is_string()) out.push_back(path->get<std::string>());
    }
  }
  return out;
}

//! The ids of `head` and its ancestors, newest first, at most `limit` of them.
std::vector<int64_t> Ancestry(const TableMetadata& metadata, int64_t head, size_t limit) {
  std::vector<int64_t> out;
  for (const Snapshot* s = metadata.SnapshotById(head); s != nullptr && out.size() < limit;
       s = s->parent_snapshot_id ? metadata.SnapshotById(*s->parent_snapshot_id) : nullptr) {
    out.push_back(s->snapshot_id);
  }
  return out;
}

}  // namespace

std::string CanonicalLocation(std::string_view location) {
  if (location.starts_with("s3a://")) return "s3://" + std::string(location.substr(6));
  if (location.starts_with("file:")) {
    if (auto path = fileio::LocalPathOf(location)) return *path;
  }
  return std::string(location);
}

Result<std::set<std::string>> ReferencedFiles(fileio::FileIO& io, const LoadedTable& loaded) {
  const TableMetadata& metadata = loaded.metadata;
  std::set<std::string> out;
  out.insert(CanonicalLocation(loaded.metadata_location));
  for (const auto& entry : metadata.metadata_log)
    out.insert(CanonicalLocation(entry.metadata_file));
  DATABOX_ASSIGN_OR_RETURN(auto statistics, StatisticsFiles(io, loaded.metadata_location));
  for (const auto& path : statistics) out.insert(CanonicalLocation(path));

  // Manifests are shared between snapshots: read each once.
  std::map<std::string, ManifestFile> manifests;
  for (const auto& snapshot : metadata.snapshots) {
    out.insert(CanonicalLocation(snapshot.manifest_list));
    DATABOX_ASSIGN_OR_RETURN(auto listed, ReadSnapshotManifests(io, &snapshot));
    for (auto& m : listed) manifests.emplace(m.manifest_path, std::move(m));
  }
  for (const auto& [path, list_entry] : manifests) {
    out.insert(CanonicalLocation(path));
    DATABOX_ASSIGN_OR_RETURN(std::string bytes, io.Read(path));
    DATABOX_ASSIGN_OR_RETURN(Manifest manifest, ReadManifest(std::move(bytes), list_entry));
    for (const auto& entry : manifest.entries) {
      // A DELETED entry records a removal; the file belongs to the snapshots before it,
      // which keep it through their own manifests while they are retained.
      if (entry.status == ManifestEntryStatus::kDeleted) continue;
      out.insert(CanonicalLocation(entry.data_file.file_path));
    }
  }
  return out;
}

namespace {

//! Files another table references from inside this table's folders.
struct ForeignFiles {
  std::vector<std::string> metadata;  //!< its metadata files found among the orphans
  std::set<std::string> referenced;   //!< everything they reference (and themselves), canonical
};

//! The metadata file at `location`, parsed; nullopt when it was removed meanwhile. `what` names
//! it in the error when it cannot be parsed ("the metadata file", ...): what it references then
//! cannot be protected.
Result<std::optional<TableMetadata>> ReadMetadataToProtect(fileio::FileIO& io,
                                                           const std::string& location,
                                                           const std::string& what) {
  auto text = io.Read(location);
  if (!text && text.error().kind == ErrorKind::kNotFound) return std::nullopt;
  if (!text) return std::unexpected(text.error().WithContext("reading " + location));
  auto metadata = ParseTableMetadata(*text);
  if (!metadata) {
    return std::unexpected(metadata.error().WithContext(
        what + " " + location +
        " cannot be read, so what it references cannot be protected; move it away first"));
  }
  return std::optional<TableMetadata>(std::move(*metadata));
}

//! The unreferenced *.metadata.json files among `orphans` whose table-uuid is not `table_uuid`,
//! and every file they reference. Such a file is another table's: a second catalog's table at
//! the same location, or the first create of this table that a killed load never registered.
Result<ForeignFiles> ForeignFilesAmong(fileio::FileIO& io, const std::vector<OrphanFile>& orphans,
                                       const std::string& table_uuid) {
  ForeignFiles foreign;
  for (const auto& orphan : orphans) {
    if (!orphan.location.ends_with(".metadata.json")) continue;
    DATABOX_ASSIGN_OR_RETURN(
        auto metadata,
        ReadMetadataToProtect(io, orphan.location, "the unreferenced metadata file"));
    if (!metadata) continue;                           // removed meanwhile
    if (metadata->table_uuid == table_uuid) continue;  // an old version of this table
    auto referenced = ReferencedFiles(io, LoadedTable{orphan.location, std::move(*metadata)});
    if (!referenced) {
      return std::unexpected(referenced.error().WithContext(
          "reading what the metadata file " + orphan.location + " of another table references"));
    }
    foreign.metadata.push_back(orphan.location);
    foreign.referenced.merge(*referenced);
  }
  return foreign;
}

//! Every file the earlier versions of `loaded` in its metadata/ folder reference (themselves
//! included), for a catalog that keeps the table's history outside its metadata: the current
//! metadata no longer names them, yet the catalog can still serve those versions.
Result<std::set<std::string>> EarlierVersionsReference(fileio::FileIO& io,
                                                       const std::vector<fileio::FileInfo>& listed,
                                                       const LoadedTable& loaded,
                                                       size_t& versions) {
  std::set<std::string> referenced;
  const std::string current = CanonicalLocation(loaded.metadata_location);
  for (const auto& file : listed) {
    if (!file.location.ends_with(".metadata.json")) continue;
    if (CanonicalLocation(file.location) == current) continue;
    DATABOX_ASSIGN_OR_RETURN(auto metadata,
                             ReadMetadataToProtect(io, file.location, "the metadata file"));
    if (!metadata) continue;                                           // removed meanwhile
    if (metadata->table_uuid != loaded.metadata.table_uuid) continue;  // another table's
    auto files = ReferencedFiles(io, LoadedTable{file.location, std::move(*metadata)});
    if (!files) {
      return std::unexpected(files.error().WithContext("reading what the earlier version " +
                                                       file.location + " references"));
    }
    referenced.merge(*files);
    referenced.insert(CanonicalLocation(file.location));
    ++versions;
  }
  return referenced;
}

}  // namespace

Result<OrphanReport> FindOrphanFiles(Catalog& catalog, fileio::FileIO& io,
                                     const TableIdentifier& table, const OrphanOptions& options) {
  const std::string name = table.ToString();
  // The location comes from a first load; the references from a second one after the listing
  // (see the file comment).
  DATABOX_ASSIGN_OR_RETURN(LoadedTable located, catalog.LoadTable(table));
  std::vector<fileio::FileInfo> listed;
  for (const char* folder : kTableFolders) {
    const std::string prefix = fileio::JoinLocation(located.metadata.location, folder);
    auto files = io.ListWithTemporaryFiles(prefix);
    if (!files) return std::unexpected(files.error().WithContext("listing " + prefix));
    for (auto& f : *files) listed.push_back(std::move(f));
  }
  if (options.remove && !options.without_snapshots.empty()) {
    return MakeError(ErrorKind::kInternal,
                     "orphan removal cannot assume snapshots expired that are still in the "
                     "metadata; expire them first");
  }
  DATABOX_ASSIGN_OR_RETURN(LoadedTable loaded, catalog.LoadTable(table));
  loaded.metadata.snapshots.RemoveIf([&](const Snapshot& s) {
    return std::ranges::find(options.without_snapshots, s.snapshot_id) !=
           options.without_snapshots.end();
  });
  auto referenced = ReferencedFiles(io, loaded);
  if (!referenced) {
    return std::unexpected(referenced.error().WithContext("reading the metadata of " + name));
  }

  OrphanReport report;
  report.metadata_location = loaded.metadata_location;
  report.listed_files = listed.size();
  report.referenced_files = referenced->size();
  const int64_t now_ms = options.now_ms != 0 ? options.now_ms : NowMs();
  std::set<std::string> seen;
  for (const auto& file : listed) {
    std::string key = CanonicalLocation(file.location);
    if (referenced->contains(key)) {
      seen.insert(std::move(key));
      continue;
    }
    OrphanFile orphan;
    orphan.location = file.location;
    orphan.size = file.size;
    if (file.modified_ms) {
      orphan.age_ms = std::max<int64_t>(0, now_ms - *file.modified_ms);
      orphan.old_enough = *orphan.age_ms >= options.min_age.count();
    }
    report.orphans.push_back(std::move(orphan));
  }
  for (const char* folder : kTableFolders) {
    const std::string prefix =
        CanonicalLocation(fileio::JoinLocation(loaded.metadata.location, folder));
    for (const auto& file : *referenced) {
      if (file.starts_with(prefix) && !seen.contains(file)) report.missing.push_back(file);
    }
  }
  // Another table's files in this table's folders are never orphans of this one, unless the
  // folder is the catalog's alone (then they are what an interrupted create of it left).
  ForeignFiles foreign;
  if (!catalog.TableFoldersAreItsOwn(loaded.metadata.location)) {
    DATABOX_ASSIGN_OR_RETURN(foreign,
                             ForeignFilesAmong(io, report.orphans, loaded.metadata.table_uuid));
  }
  report.foreign_metadata = std::move(foreign.metadata);
  report.foreign_files = std::erase_if(report.orphans, [&](const OrphanFile& orphan) {
    return foreign.referenced.contains(CanonicalLocation(orphan.location));
  });
  if (catalog.KeepsHistoryOutsideMetadata()) {
    DATABOX_ASSIGN_OR_RETURN(auto history,
                             EarlierVersionsReference(io, listed, loaded, report.history_versions));
    report.history_files = std::erase_if(report.orphans, [&](const OrphanFile& orphan) {
      return history.contains(CanonicalLocation(orphan.location));
    });
  }
  if (!options.remove) return report;

  if (!report.missing.empty()) {
    return MakeError(ErrorKind::kData,
                     "refusing to remove orphan files of " + name + ": " +
                         std::to_string(report.missing.size()) +
                         " file(s) its metadata references are not in the listing (first: " +
                         report.missing.front() +
                         "); the table is damaged or its locations are spelled differently from "
                         "the storage's; run without --remove to see the report");
  }
  for (auto& orphan : report.orphans) {
    if (!orphan.old_enough) continue;
    auto deleted = io.Delete(orphan.location);
    if (!deleted && deleted.error().kind != ErrorKind::kNotFound) {
      return std::unexpected(deleted.error().WithContext("removing orphan file of " + name));
    }
    orphan.removed = true;
  }
  return report;
}

std::vector<int64_t> SnapshotsToExpire(const TableMetadata& metadata,
                                       const ExpireOptions& options) {
  std::set<int64_t> keep;
  if (metadata.current_snapshot_id) keep.insert(*metadata.current_snapshot_id);
  for (const auto& [ref_name, ref] : metadata.refs) {
    size_t depth = 1;
    if (ref_name == kMainBranch) {
      depth = static_cast<size_t>(std::max(1, options.retain_last));
    } else if (ref.type == SnapshotRefType::kBranch && ref.min_snapshots_to_keep) {
      depth = static_cast<size_t>(std::max(1, *ref.min_snapshots_to_keep));
    }
    for (int64_t id : Ancestry(metadata, ref.snapshot_id, depth)) keep.insert(id);
  }
  if (metadata.current_snapshot_id && !metadata.refs.contains(kMainBranch)) {
    const size_t depth = static_cast<size_t>(std::max(1, options.retain_last));
    for (int64_t id : Ancestry(metadata, *metadata.current_snapshot_id, depth)) keep.insert(id);
  }
  std::vector<int64_t> out;
  for (const auto& s : metadata.snapshots) {
    if (keep.contains(s.snapshot_id)) continue;
    if (options.keep_newer_than_ms && s.timestamp_ms >= *options.keep_newer_than_ms) continue;
    out.push_back(s.snapshot_id);
  }
  std::ranges::sort(out);
  return out;
}

Result<PlannedChange> ExpireSnapshots::Plan(const LoadedTable* base) {
  if (base == nullptr) {
    return MakeError(ErrorKind::kNotFound, "table " + table_.ToString() + " does not exist");
  }
  PlannedChange planned;
  expired_ = SnapshotsToExpire(base->metadata, options_);
  if (expired_.empty()) return planned;
  planned.updates.push_back(RemoveSnapshots{expired_});
  // Any ref moving in between could point at an expired snapshot: re-plan then.
  for (const auto& [ref_name, ref] : base->metadata.refs) {
    planned.requirements.push_back(AssertRefSnapshotId{ref_name, ref.snapshot_id});
  }
  return planned;
}

}  // namespace databox::iceberg
