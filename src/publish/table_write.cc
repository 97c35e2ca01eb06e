#include "publish/table_write.h"

#include "fileio/location.h"
#include "iceberg/manifest/manifest_list.h"
#include "iceberg/metadata/metadata_json.h"
#include "iceberg/produce/snapshot_producer.h"

namespace databox::publish {
namespace {

bool NamesPrivate(std::string_view value, const std::vector<std::string>& private_prefixes) {
  for (const std::string& prefix : private_prefixes) {
    if (!prefix.empty() && value.find(prefix) != std::string_view::npos) return true;
  }
  return false;
}

template <typename Map>
void DropPrivate(Map& values, const std::vector<std::string>& private_prefixes) {
  std::erase_if(values, [&](const auto& kv) {
    return kv.first.starts_with("write.") && kv.first.ends_with(".path")
               ? true
               : NamesPrivate(kv.second, private_prefixes);
  });
}

//! The entry as the target names it: the data file's target location, or the rewritten delete.
Result<iceberg::ManifestEntry> TargetEntry(
    const TablePlan& plan, iceberg::ManifestEntry entry,
    const std::map<std::string, iceberg::DataFile>& deletes) {
  const std::string& source = entry.data_file.file_path;
  if (entry.data_file.content == iceberg::DataFileContent::kPositionDeletes) {
    auto it = deletes.find(source);
    if (it == deletes.end()) {
      return MakeError(ErrorKind::kInternal, "delete file " + source + " was not rewritten");
    }
    entry.data_file = it->second;
    return entry;
  }
  auto it = plan.targets.find(source);
  if (it == plan.targets.end()) {
    return MakeError(ErrorKind::kInternal, "data file " + source + " has no target location");
  }
  entry.data_file.file_path = it->second;
  return entry;
}

}  // namespace

Result<std::string> WriteTableMetadata(const TablePlan& plan,
                                       const std::map<std::string, iceberg::DataFile>& deletes,
                                       const std::vector<std::string>& private_prefixes,
                                       fileio::FileIO& target_io, const Layout& layout,
                                       int64_t version) {
  const std::string location = layout.TableLocation(version, plan.ns, plan.table);
  const std::string metadata_folder = fileio::JoinLocation(location, "metadata");
  const std::string prefix = "v" + std::to_string(version) + "-";
  iceberg::TableMetadata out = plan.metadata;
  out.location = location;
  out.snapshots.clear();
  out.snapshot_log.clear();
  out.metadata_log.clear();
  out.refs.clear();
  out.statistics.clear();
  out.partition_statistics.clear();
  DropPrivate(out.properties, private_prefixes);
  const iceberg::Snapshot* source = plan.metadata.CurrentSnapshot();
  if (source != nullptr) {
    const iceberg::Schema* schema = plan.metadata.CurrentSchema();
    std::vector<fileio::NewObject> objects;
    std::vector<iceberg::ManifestFile> manifests;
    for (size_t i = 0; i < plan.groups.size(); ++i) {
      const ManifestGroup& group = plan.groups[i];
      const iceberg::PartitionSpec* spec = plan.metadata.SpecById(group.partition_spec_id);
      if (schema == nullptr || spec == nullptr) {
        return MakeError(ErrorKind::kData, "table " + plan.ns + "." + plan.table +
                                               " names a schema or partition spec it lacks");
      }
      std::vector<iceberg::ManifestEntry> entries;
      for (const iceberg::ManifestEntry& entry : group.entries) {
        DATABOX_ASSIGN_OR_RETURN(iceberg::ManifestEntry target, TargetEntry(plan, entry, deletes));
        entries.push_back(std::move(target));
      }
      const std::string name =
          fileio::JoinLocation(metadata_folder, prefix + "m" + std::to_string(i) + ".avro");
      DATABOX_ASSIGN_OR_RETURN(
          iceberg::ManifestFile file,
          iceberg::EncodeManifestFile(name, *schema, *spec, source->snapshot_id, entries, objects,
                                      group.content));
      manifests.push_back(std::move(file));
    }
    iceberg::Snapshot snapshot = *source;
    snapshot.parent_snapshot_id.reset();
    snapshot.manifest_list = fileio::JoinLocation(
        metadata_folder, prefix + "snap-" + std::to_string(source->snapshot_id) + ".avro");
    DropPrivate(snapshot.summary, private_prefixes);
    DATABOX_ASSIGN_OR_RETURN(
        std::string list,
        iceberg::WriteManifestList(manifests, {.snapshot_id = snapshot.snapshot_id,
                                               .parent_snapshot_id = std::nullopt,
                                               .sequence_number = snapshot.sequence_number}));
    objects.push_back({snapshot.manifest_list, std::move(list)});
    for (const fileio::NewObject& object : objects) {
      DATABOX_RETURN_IF_ERROR(target_io.Write(object.location, object.bytes));
    }
    out.snapshot_log.push_back({snapshot.snapshot_id, snapshot.timestamp_ms});
    out.refs[iceberg::kMainBranch] = iceberg::SnapshotRef::Branch(snapshot.snapshot_id);
    out.snapshots.push_back(std::move(snapshot));
  }
  DATABOX_RETURN_IF_ERROR(out.Validate());
  const std::string metadata_location = fileio::JoinLocation(metadata_folder, "v1.metadata.json");
  DATABOX_RETURN_IF_ERROR(
      target_io.Write(metadata_location, iceberg::TableMetadataToJsonString(out)));
  DATABOX_RETURN_IF_ERROR(
      target_io.Write(fileio::JoinLocation(metadata_folder, "version-hint.text"), "1"));
  return metadata_location;
}

}  // namespace databox::publish
