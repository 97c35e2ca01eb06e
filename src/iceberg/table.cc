#include "iceberg/table.h"

#include "iceberg/produce/snapshot_producer.h"

namespace databox::iceberg {

Result<Table> Table::Load(Catalog& catalog, std::shared_ptr<fileio::FileIO> io,
                          TableIdentifier table) {
  DATABOX_ASSIGN_OR_RETURN(LoadedTable loaded, catalog.LoadTable(table));
  return Of(catalog, std::move(io), std::move(table), std::move(loaded));
}

Result<Table> Table::Of(Catalog& catalog, std::shared_ptr<fileio::FileIO> io, TableIdentifier table,
                        LoadedTable loaded) {
  if (loaded.metadata.CurrentSchema() == nullptr) {
    return MakeError(ErrorKind::kData, "table " + table.ToString() + " has no current schema");
  }
  return Table(&catalog, std::move(io), std::move(table), std::move(loaded));
}

Status Table::Refresh() {
  DATABOX_ASSIGN_OR_RETURN(loaded_, catalog_->LoadTable(table_));
  return Ok();
}

Result<LiveFiles> LiveFilesOf(fileio::FileIO& io, const Snapshot* snapshot) {
  DATABOX_ASSIGN_OR_RETURN(auto manifests, ReadSnapshotManifests(io, snapshot));
  LiveFiles files;
  for (const auto& manifest_file : manifests) {
    DATABOX_ASSIGN_OR_RETURN(std::string bytes, io.Read(manifest_file.manifest_path));
    DATABOX_ASSIGN_OR_RETURN(Manifest manifest, ReadManifest(std::move(bytes), manifest_file));
    for (auto& entry : manifest.entries) {
      if (entry.status == ManifestEntryStatus::kDeleted) continue;
      files.spec_ids[entry.data_file.file_path] = manifest_file.partition_spec_id;
      switch (entry.data_file.content) {
        case DataFileContent::kData:
          files.data.push_back(std::move(entry.data_file));
          break;
        case DataFileContent::kPositionDeletes:
          files.deletes.push_back(std::move(entry.data_file));
          break;
        case DataFileContent::kEqualityDeletes:
          return MakeError(ErrorKind::kData,
                           "manifest " + manifest_file.manifest_path +
                               " lists equality delete file " + entry.data_file.file_path +
                               ": equality deletes are not supported (only position deletes)");
      }
    }
  }
  return files;
}

std::vector<DataFile> DataFilesOutsideSpec(const LiveFiles& live, int32_t spec_id) {
  std::vector<DataFile> out;
  for (const DataFile& file : live.data) {
    auto it = live.spec_ids.find(file.file_path);
    if (it != live.spec_ids.end() && it->second != spec_id) out.push_back(file);
  }
  return out;
}

Result<std::vector<DataFile>> LiveDataFiles(fileio::FileIO& io, const Snapshot* snapshot) {
  DATABOX_ASSIGN_OR_RETURN(LiveFiles files, LiveFilesOf(io, snapshot));
  return std::move(files.data);
}

Result<std::vector<DataFile>> Table::LiveDataFiles(std::string_view ref) const {
  return iceberg::LiveDataFiles(*io_, metadata().SnapshotForRef(ref));
}

Result<LiveFiles> Table::Live(std::string_view ref) const {
  return LiveFilesOf(*io_, metadata().SnapshotForRef(ref));
}

std::vector<Snapshot> Table::History(std::string_view ref) const {
  std::vector<Snapshot> out;
  for (const Snapshot* s = metadata().SnapshotForRef(ref); s != nullptr;
       s = s->parent_snapshot_id ? metadata().SnapshotById(*s->parent_snapshot_id) : nullptr) {
    out.push_back(*s);
  }
  return out;
}

}  // namespace databox::iceberg
