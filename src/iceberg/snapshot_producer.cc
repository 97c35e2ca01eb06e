#include "iceberg/snapshot_producer.h"

#include <algorithm>
#include <utility>

#include "common/failpoint.h"
#include "fileio/location.h"
#include "iceberg/manifest_list.h"

namespace databox::iceberg {
namespace {

bool IsLive(const ManifestEntry& entry) { return entry.status != ManifestEntryStatus::kDeleted; }

//! Running totals for the summary.
struct Counts {
  int64_t files = 0;
  int64_t records = 0;
  int64_t bytes = 0;
  void Add(const DataFile& file) {
    ++files;
    records += file.record_count;
    bytes += file.file_size_in_bytes;
  }
};

std::optional<int64_t> SummaryNumber(const Snapshot* snapshot, const std::string& key) {
  if (snapshot == nullptr) return int64_t{0};
  auto it = snapshot->summary.find(key);
  if (it == snapshot->summary.end()) return std::nullopt;
  try {
    return std::stoll(it->second);
  } catch (...) {
    return std::nullopt;
  }
}

}  // namespace

Result<ManifestFile> EncodeManifestFile(const std::string& location, const Schema& schema,
                                        const PartitionSpec& spec, int64_t snapshot_id,
                                        const std::vector<ManifestEntry>& entries,
                                        std::vector<fileio::NewObject>& pending,
                                        ManifestContent content) {
  std::string bytes;
  DATABOX_ASSIGN_OR_RETURN(auto writer,
                           ManifestWriter::Make(schema, spec, content, snapshot_id,
                                                [&bytes](std::string_view b) -> Status {
                                                  bytes.append(b);
                                                  return Ok();
                                                }));
  for (const auto& entry : entries) DATABOX_RETURN_IF_ERROR(writer.Add(entry));
  DATABOX_ASSIGN_OR_RETURN(ManifestFile file, writer.Finish(location));
  pending.push_back({location, std::move(bytes)});
  return file;
}

Result<std::vector<ManifestFile>> ReadSnapshotManifests(fileio::FileIO& io,
                                                        const Snapshot* snapshot) {
  if (snapshot == nullptr) return std::vector<ManifestFile>{};
  DATABOX_ASSIGN_OR_RETURN(std::string bytes, io.Read(snapshot->manifest_list));
  return ReadManifestList(std::move(bytes), snapshot->manifest_list);
}

Status SnapshotProducer::ValidateNoNewData(const TableMetadata& base, const Snapshot* head) const {
  for (const Snapshot* s = head; s != nullptr;
       s = s->parent_snapshot_id ? base.SnapshotById(*s->parent_snapshot_id) : nullptr) {
    if (change_.read_snapshot && s->snapshot_id == *change_.read_snapshot) return Ok();
    auto added = s->summary.find("added-data-files");
    if (added == s->summary.end() || added->second != "0") {
      return MakeError(ErrorKind::kConflict,
                       "snapshot " + std::to_string(s->snapshot_id) + " (" + s->operation() +
                           ") added data files to branch " + change_.branch + " of " +
                           base.location +
                           " after this merge read it: they may hold the same keys; run the "
                           "operation again");
    }
  }
  if (!change_.read_snapshot) return Ok();
  return MakeError(ErrorKind::kConflict,
                   "snapshot " + std::to_string(*change_.read_snapshot) +
                       " that this merge read is no longer in the history of branch " +
                       change_.branch + " of " + base.location + "; run the operation again");
}

Result<ProducedSnapshot> SnapshotProducer::Produce(const TableMetadata& base) {
  ++attempt_;
  if (!snapshot_id_) snapshot_id_ = base.NewSnapshotId();
  const int64_t snapshot_id = *snapshot_id_;
  const Schema* schema = base.CurrentSchema();
  const PartitionSpec* default_spec = base.DefaultSpec();
  if (schema == nullptr || default_spec == nullptr) {
    return MakeError(ErrorKind::kData, "table " + base.location + " has no current schema or spec");
  }
  const std::string metadata_dir = fileio::JoinLocation(base.location, "metadata");
  auto new_manifest_location = [&] {
    return fileio::JoinLocation(metadata_dir,
                                NewUuid() + "-m" + std::to_string(attempt_) + ".avro");
  };

  ProducedSnapshot out;
  std::vector<fileio::NewObject> pending;  // this attempt's files, written together at the end
  std::optional<ManifestFile> new_added_manifest;
  std::optional<ManifestFile> new_delete_manifest;
  const Snapshot* parent = base.CommitBase(change_.branch);
  DATABOX_ASSIGN_OR_RETURN(auto parent_manifests, ReadSnapshotManifests(*io_, parent));

  // Manifests of this snapshot: new ones first, then the carried ones.
  std::vector<ManifestFile> produced;
  std::vector<ManifestFile> carried;
  Counts added, deleted, added_deletes, removed_deletes;

  // The manifest of added files of one content, written at the first attempt and reused.
  auto add_manifest = [&](const std::vector<DataFile>& files, ManifestContent content,
                          const std::optional<ManifestFile>& kept,
                          std::optional<ManifestFile>& fresh, Counts& counts) -> Status {
    if (files.empty()) return Ok();
    if (!kept) {
      std::vector<ManifestEntry> entries;
      for (const auto& file : files) {
        entries.push_back(
            {ManifestEntryStatus::kAdded, std::nullopt, std::nullopt, std::nullopt, file});
      }
      DATABOX_ASSIGN_OR_RETURN(
          fresh, EncodeManifestFile(new_manifest_location(), *schema, *default_spec, snapshot_id,
                                    entries, pending, content));
    }
    const ManifestFile& manifest = kept ? *kept : *fresh;
    out.durable_files.push_back(manifest.manifest_path);
    produced.push_back(manifest);
    for (const auto& file : files) counts.Add(file);
    return Ok();
  };
  DATABOX_RETURN_IF_ERROR(add_manifest(change_.added_files, ManifestContent::kData, added_manifest_,
                                       new_added_manifest, added));
  DATABOX_RETURN_IF_ERROR(add_manifest(change_.added_delete_files, ManifestContent::kDeletes,
                                       added_delete_manifest_, new_delete_manifest, added_deletes));

  // Deletions: rewrite each manifest holding a deleted file with DELETED/EXISTING entries.
  // Data manifests are also read when added deletes need their data files to be live.
  std::set<std::string> found;
  std::set<std::string> referenced_live;
  const bool deleting = change_.delete_all || !change_.deleted_paths.empty();
  const bool checking = !change_.referenced_paths.empty();
  for (const auto& manifest_file : parent_manifests) {
    const bool is_data = manifest_file.content == ManifestContent::kData;
    if (!(deleting || (checking && is_data)) ||
        manifest_file.added_files_count + manifest_file.existing_files_count == 0) {
      carried.push_back(manifest_file);
      continue;
    }
    DATABOX_ASSIGN_OR_RETURN(std::string bytes, io_->Read(manifest_file.manifest_path));
    DATABOX_ASSIGN_OR_RETURN(Manifest manifest, ReadManifest(std::move(bytes), manifest_file));
    bool touched = false;
    std::vector<ManifestEntry> entries;
    for (auto& entry : manifest.entries) {
      if (!IsLive(entry)) continue;
      const std::string& path = entry.data_file.file_path;
      if (is_data && change_.referenced_paths.contains(path)) referenced_live.insert(path);
      // delete_all removes the data; the delete files go with it.
      if (change_.delete_all || change_.deleted_paths.contains(path)) {
        touched = true;
        found.insert(path);
        (is_data ? deleted : removed_deletes).Add(entry.data_file);
        entry.status = ManifestEntryStatus::kDeleted;
        entry.snapshot_id = snapshot_id;
      } else {
        entry.status = ManifestEntryStatus::kExisting;
      }
      entries.push_back(std::move(entry));
    }
    if (!touched) {
      carried.push_back(manifest_file);
      continue;
    }
    const PartitionSpec* spec = base.SpecById(manifest_file.partition_spec_id);
    if (spec == nullptr) {
      return MakeError(ErrorKind::kData, "manifest " + manifest_file.manifest_path +
                                             " uses unknown partition spec " +
                                             std::to_string(manifest_file.partition_spec_id));
    }
    const std::string location = new_manifest_location();
    DATABOX_ASSIGN_OR_RETURN(ManifestFile rewritten,
                             EncodeManifestFile(location, *schema, *spec, snapshot_id, entries,
                                                pending, manifest_file.content));
    out.attempt_files.push_back(location);
    produced.push_back(std::move(rewritten));
  }
  for (const auto& path : change_.deleted_paths) {
    if (!found.contains(path)) {
      return MakeError(ErrorKind::kConflict, "file " + path + " is no longer live on branch " +
                                                 change_.branch + " of " + base.location +
                                                 ": a concurrent commit changed it; run the "
                                                 "operation again");
    }
  }
  for (const auto& path : change_.referenced_paths) {
    if (!referenced_live.contains(path) || found.contains(path)) {
      return MakeError(ErrorKind::kConflict,
                       "data file " + path +
                           " that new position deletes point at is no longer "
                           "live on branch " +
                           change_.branch + " of " + base.location +
                           ": a concurrent commit rewrote it; run the operation again");
    }
  }

  if (change_.validate_no_new_data) DATABOX_RETURN_IF_ERROR(ValidateNoNewData(base, parent));

  // Merge-append: fold small carried manifests once the list grows past the threshold.
  const size_t total = produced.size() + carried.size();
  if (change_.merge.enabled && total > static_cast<size_t>(change_.merge.min_count_to_merge)) {
    std::map<int32_t, std::vector<ManifestFile>> bins;
    std::vector<ManifestFile> kept;
    for (auto& m : carried) {
      if (m.content == ManifestContent::kData &&
          m.manifest_length < change_.merge.target_size_bytes) {
        bins[m.partition_spec_id].push_back(std::move(m));
      } else {
        kept.push_back(std::move(m));
      }
    }
    for (auto& [spec_id, bin] : bins) {
      if (bin.size() < 2) {
        for (auto& m : bin) kept.push_back(std::move(m));
        continue;
      }
      std::vector<ManifestEntry> entries;
      for (const auto& m : bin) {
        DATABOX_ASSIGN_OR_RETURN(std::string bytes, io_->Read(m.manifest_path));
        DATABOX_ASSIGN_OR_RETURN(Manifest manifest, ReadManifest(std::move(bytes), m));
        for (auto& entry : manifest.entries) {
          if (!IsLive(entry)) continue;
          entry.status = ManifestEntryStatus::kExisting;
          entries.push_back(std::move(entry));
        }
      }
      const PartitionSpec* spec = base.SpecById(spec_id);
      if (spec == nullptr) {
        return MakeError(ErrorKind::kData, "unknown partition spec " + std::to_string(spec_id) +
                                               " in " + base.location);
      }
      const std::string location = new_manifest_location();
      DATABOX_ASSIGN_OR_RETURN(
          ManifestFile merged,
          EncodeManifestFile(location, *schema, *spec, snapshot_id, entries, pending));
      out.attempt_files.push_back(location);
      produced.push_back(std::move(merged));
    }
    carried = std::move(kept);
  }
  for (auto& m : carried) produced.push_back(std::move(m));

  // Summary (spec "Snapshot summary" keys) and the snapshot itself.
  Snapshot& snapshot = out.snapshot;
  snapshot.snapshot_id = snapshot_id;
  if (parent != nullptr) snapshot.parent_snapshot_id = parent->snapshot_id;
  snapshot.sequence_number = base.NextSequenceNumber();
  snapshot.timestamp_ms = std::max(NowMs(), base.last_updated_ms);
  snapshot.schema_id = base.current_schema_id;
  int64_t total_files = 0, total_records = 0, total_delete_files = 0, total_deletes = 0;
  for (const auto& m : produced) {
    const int64_t files = m.added_files_count + m.existing_files_count;
    const int64_t rows = m.added_rows_count + m.existing_rows_count;
    if (m.content == ManifestContent::kData) {
      total_files += files;
      total_records += rows;
    } else {
      total_delete_files += files;
      total_deletes += rows;
    }
  }
  auto& summary = snapshot.summary;
  summary = change_.extra_summary;
  summary["operation"] = change_.operation;
  if (!change_.load_id.empty()) summary[kLoadIdSummaryKey] = change_.load_id;
  summary["added-data-files"] = std::to_string(added.files);
  summary["added-records"] = std::to_string(added.records);
  summary["added-files-size"] = std::to_string(added.bytes);
  summary["deleted-data-files"] = std::to_string(deleted.files);
  summary["deleted-records"] = std::to_string(deleted.records);
  summary["removed-files-size"] = std::to_string(deleted.bytes);
  summary["total-data-files"] = std::to_string(total_files);
  summary["total-records"] = std::to_string(total_records);
  if (added_deletes.files > 0) {
    summary["added-delete-files"] = std::to_string(added_deletes.files);
    summary["added-position-delete-files"] = std::to_string(added_deletes.files);
    summary["added-position-deletes"] = std::to_string(added_deletes.records);
  }
  if (removed_deletes.files > 0) {
    summary["removed-delete-files"] = std::to_string(removed_deletes.files);
    summary["removed-position-delete-files"] = std::to_string(removed_deletes.files);
    summary["removed-position-deletes"] = std::to_string(removed_deletes.records);
  }
  if (auto previous = SummaryNumber(parent, "total-files-size")) {
    summary["total-files-size"] = std::to_string(*previous + added.bytes - deleted.bytes +
                                                 added_deletes.bytes - removed_deletes.bytes);
  }
  summary["total-delete-files"] = std::to_string(total_delete_files);
  summary["total-position-deletes"] = std::to_string(total_deletes);
  summary["total-equality-deletes"] = "0";

  const std::string list_location =
      fileio::JoinLocation(metadata_dir, "snap-" + std::to_string(snapshot_id) + "-" +
                                             std::to_string(attempt_) + "-" + NewUuid() + ".avro");
  ManifestListOptions list_options{.snapshot_id = snapshot_id,
                                   .parent_snapshot_id = snapshot.parent_snapshot_id,
                                   .sequence_number = snapshot.sequence_number,
                                   .codec = avro::Codec::kDeflate};
  DATABOX_ASSIGN_OR_RETURN(std::string list_bytes, WriteManifestList(produced, list_options));
  pending.push_back({list_location, std::move(list_bytes)});
  if (auto written = io_->WriteNewBatch(pending); !written) {
    // Nothing of this attempt is referenced: remove what did get written.
    for (const auto& object : pending) (void)io_->Delete(object.location);
    return std::unexpected(written.error());
  }
  if (new_added_manifest) added_manifest_ = std::move(new_added_manifest);
  if (new_delete_manifest) added_delete_manifest_ = std::move(new_delete_manifest);
  out.attempt_files.push_back(list_location);
  Failpoint("after-manifest-write");
  snapshot.manifest_list = list_location;

  SnapshotRef ref = SnapshotRef::Branch(snapshot_id);
  if (const SnapshotRef* existing = base.RefByName(change_.branch)) {
    ref = *existing;
    ref.snapshot_id = snapshot_id;
  }
  out.updates.push_back(AddSnapshot{snapshot});
  out.updates.push_back(SetSnapshotRef{change_.branch, ref});
  return out;
}

}  // namespace databox::iceberg
