#include "iceberg/produce/manifest_filter.h"

#include <utility>

#include "iceberg/manifest/manifest.h"
#include "iceberg/produce/snapshot_producer.h"

namespace databox::iceberg {

Result<FilteredManifests> FilterManifests(const SnapshotChange& change,
                                          std::vector<ManifestFile> manifests, fileio::FileIO& io,
                                          ProduceAttempt& attempt) {
  FilteredManifests out;
  const bool deleting = change.delete_all || !change.deleted_paths.empty();
  const bool checking = !change.referenced_paths.empty();
  for (auto& manifest_file : manifests) {
    const bool is_data = manifest_file.content == ManifestContent::kData;
    if (!(deleting || (checking && is_data)) ||
        manifest_file.added_files_count + manifest_file.existing_files_count == 0) {
      out.carried.push_back(std::move(manifest_file));
      continue;
    }
    DATABOX_ASSIGN_OR_RETURN(std::string bytes, io.Read(manifest_file.manifest_path));
    DATABOX_ASSIGN_OR_RETURN(Manifest manifest, ReadManifest(std::move(bytes), manifest_file));
    bool touched = false;
    std::vector<ManifestEntry> entries;
    for (auto& entry : manifest.entries) {
      if (entry.status == ManifestEntryStatus::kDeleted) continue;
      const std::string& path = entry.data_file.file_path;
      if (is_data && change.referenced_paths.contains(path)) out.referenced_live.insert(path);
      // delete_all removes the data; the delete files go with it.
      if (change.delete_all || change.deleted_paths.contains(path)) {
        touched = true;
        out.deleted.insert(path);
        (is_data ? out.removed.data : out.removed.deletes).Add(entry.data_file);
        entry.status = ManifestEntryStatus::kDeleted;
        entry.snapshot_id = attempt.snapshot_id();
      } else {
        entry.status = ManifestEntryStatus::kExisting;
      }
      entries.push_back(std::move(entry));
    }
    if (!touched) {
      out.carried.push_back(std::move(manifest_file));
      continue;
    }
    const PartitionSpec* spec = attempt.base().SpecById(manifest_file.partition_spec_id);
    if (spec == nullptr) {
      return MakeError(ErrorKind::kData, "manifest " + manifest_file.manifest_path +
                                             " uses unknown partition spec " +
                                             std::to_string(manifest_file.partition_spec_id));
    }
    DATABOX_ASSIGN_OR_RETURN(ManifestFile rewritten,
                             attempt.EncodeManifest(*spec, entries, manifest_file.content));
    out.rewritten.push_back(std::move(rewritten));
  }
  return out;
}

}  // namespace databox::iceberg
