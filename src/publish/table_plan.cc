#include "publish/table_plan.h"

#include "iceberg/manifest/manifest_list.h"

namespace databox::publish {

Result<TablePlan> PlanTable(const iceberg::TableIdentifier& id,
                            const iceberg::TableMetadata& metadata, fileio::FileIO& source_io,
                            const Layout& layout) {
  TablePlan plan;
  plan.ns = id.ns.empty() ? "" : id.ns.back();
  plan.table = id.name;
  plan.metadata = metadata;
  const iceberg::Snapshot* snapshot = metadata.CurrentSnapshot();
  if (snapshot == nullptr) return plan;
  DATABOX_ASSIGN_OR_RETURN(std::string list_bytes, source_io.Read(snapshot->manifest_list));
  DATABOX_ASSIGN_OR_RETURN(
      std::vector<iceberg::ManifestFile> list,
      iceberg::ReadManifestList(std::move(list_bytes), snapshot->manifest_list));
  for (const iceberg::ManifestFile& entry : list) {
    DATABOX_ASSIGN_OR_RETURN(std::string bytes, source_io.Read(entry.manifest_path));
    auto manifest = iceberg::ReadManifest(std::move(bytes), entry);
    if (!manifest) return std::unexpected(manifest.error().WithContext(entry.manifest_path));
    ManifestGroup group{entry.partition_spec_id, entry.content, {}};
    for (iceberg::ManifestEntry& e : manifest->entries) {
      if (e.status == iceberg::ManifestEntryStatus::kDeleted) continue;
      if (e.data_file.content == iceberg::DataFileContent::kEqualityDeletes) {
        return MakeError(ErrorKind::kData,
                         "table " + id.ToString() + " has equality delete files (" +
                             e.data_file.file_path +
                             "), which databox publish cannot publish (databox never writes "
                             "them; another engine did)");
      }
      const bool is_data = e.data_file.content == iceberg::DataFileContent::kData;
      plan.rows += is_data ? e.data_file.record_count : -e.data_file.record_count;
      plan.targets[e.data_file.file_path] =
          layout.DataFile(plan.ns, plan.table, e.data_file.file_path,
                          static_cast<uint64_t>(e.data_file.file_size_in_bytes));
      e.status = iceberg::ManifestEntryStatus::kExisting;
      group.entries.push_back(std::move(e));
    }
    if (!group.entries.empty()) plan.groups.push_back(std::move(group));
  }
  return plan;
}

}  // namespace databox::publish
