#include "iceberg/table_scan.h"

#include <set>

#include "duck/quote.h"
#include "fileio/location.h"
#include "iceberg/data_files.h"
#include "iceberg/snapshot_producer.h"

namespace databox::iceberg {
namespace {

void CollectIds(const NestedField& field, std::set<int32_t>& ids) {
  ids.insert(field.id);
  for (const auto& child : field.type.fields()) CollectIds(child, ids);
}

}  // namespace

Result<Table> Table::Load(catalog::Catalog& catalog, std::shared_ptr<fileio::FileIO> io,
                          catalog::TableIdentifier table) {
  DATABOX_ASSIGN_OR_RETURN(catalog::LoadedTable loaded, catalog.LoadTable(table));
  if (loaded.metadata.CurrentSchema() == nullptr) {
    return MakeError(ErrorKind::kData, "table " + TableName(table) + " has no current schema");
  }
  return Table(&catalog, std::move(io), std::move(table), std::move(loaded));
}

Status Table::Refresh() {
  DATABOX_ASSIGN_OR_RETURN(loaded_, catalog_->LoadTable(table_));
  return Ok();
}

Result<std::vector<DataFile>> LiveDataFiles(fileio::FileIO& io, const Snapshot* snapshot) {
  DATABOX_ASSIGN_OR_RETURN(auto manifests, ReadSnapshotManifests(io, snapshot));
  std::vector<DataFile> files;
  for (const auto& manifest_file : manifests) {
    if (manifest_file.content != ManifestContent::kData) continue;
    DATABOX_ASSIGN_OR_RETURN(std::string bytes, io.Read(manifest_file.manifest_path));
    DATABOX_ASSIGN_OR_RETURN(Manifest manifest, ReadManifest(std::move(bytes), manifest_file));
    for (auto& entry : manifest.entries) {
      if (entry.status != ManifestEntryStatus::kDeleted)
        files.push_back(std::move(entry.data_file));
    }
  }
  return files;
}

Result<std::vector<DataFile>> Table::LiveDataFiles(std::string_view ref) const {
  return iceberg::LiveDataFiles(*io_, metadata().SnapshotForRef(ref));
}

std::vector<Snapshot> Table::History(std::string_view ref) const {
  std::vector<Snapshot> out;
  for (const Snapshot* s = metadata().SnapshotForRef(ref); s != nullptr;
       s = s->parent_snapshot_id ? metadata().SnapshotById(*s->parent_snapshot_id) : nullptr) {
    out.push_back(*s);
  }
  return out;
}

Result<std::string> Table::ReadSql(std::string_view ref) const {
  DATABOX_ASSIGN_OR_RETURN(auto files, LiveDataFiles(ref));
  return FilesReadSql(schema(), files);
}

Result<std::string> DuckPathOf(const std::string& location) {
  DATABOX_ASSIGN_OR_RETURN(fileio::Scheme scheme, fileio::SchemeOf(location));
  if (scheme == fileio::Scheme::kLocal) return fileio::LocalPathOf(location);
  return location;
}

Result<std::string> FilesReadSql(const Schema& schema, std::span<const DataFile> files) {
  std::set<int32_t> written;  // field ids some file has statistics for
  std::string paths;
  for (const auto& file : files) {
    for (const auto& [id, count] : file.value_counts) written.insert(id);
    for (const auto& [id, size] : file.column_sizes) written.insert(id);
    DATABOX_ASSIGN_OR_RETURN(std::string path, DuckPathOf(file.file_path));
    paths += (paths.empty() ? "" : ", ") + duck::QuoteLiteral(path);
  }
  std::string select;
  for (const auto& field : schema.fields()) {
    std::set<int32_t> ids;
    CollectIds(field, ids);
    bool present = false;
    for (int32_t id : ids) present = present || written.contains(id);
    const std::string name = duck::QuoteIdentifier(field.name);
    const std::string type = DuckTypeOf(field.type);
    select += select.empty() ? "" : ", ";
    if (!present || files.empty()) {
      select += "CAST(NULL AS " + type + ") AS " + name;
    } else if (field.type.is_primitive()) {
      select += "CAST(" + name + " AS " + type + ") AS " + name;
    } else {
      select += name;
    }
  }
  if (files.empty()) return "SELECT " + select + " LIMIT 0";
  return "SELECT " + select + " FROM read_parquet([" + paths + "], union_by_name = true)";
}

}  // namespace databox::iceberg
