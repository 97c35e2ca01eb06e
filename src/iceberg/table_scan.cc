#include "iceberg/table_scan.h"

#include <set>

#include "duck/quote.h"
#include "fileio/location.h"
#include "iceberg/data_files.h"
#include "iceberg/position_deletes.h"
#include "iceberg/snapshot_producer.h"

namespace databox::iceberg {
namespace {

void CollectIds(const NestedField& field, std::set<int32_t>& ids) {
  ids.insert(field.id);
  for (const auto& child : field.type.fields()) CollectIds(child, ids);
}

}  // namespace

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

Result<std::string> Table::ReadSql(std::string_view ref) const {
  DATABOX_ASSIGN_OR_RETURN(LiveFiles files, Live(ref));
  return FilesReadSql(schema(), files.data, files.deletes);
}

Result<std::string> DuckPathOf(const std::string& location) {
  DATABOX_ASSIGN_OR_RETURN(fileio::Scheme scheme, fileio::SchemeOf(location));
  if (scheme == fileio::Scheme::kLocal) return fileio::LocalPathOf(location);
  return location;
}

Result<std::string> PathLocationsSql(std::span<const DataFile> files, const std::string& alias) {
  std::string values;
  for (const auto& file : files) {
    DATABOX_ASSIGN_OR_RETURN(std::string path, DuckPathOf(file.file_path));
    values += (values.empty() ? "(" : ", (") + duck::QuoteLiteral(path) + ", " +
              duck::QuoteLiteral(file.file_path) + ")";
  }
  if (values.empty()) {
    return "(SELECT NULL::VARCHAR AS path, NULL::VARCHAR AS location LIMIT 0) AS " + alias;
  }
  return "(VALUES " + values + ") AS " + alias + "(path, location)";
}

std::optional<std::string> ReferencedDataFile(const DataFile& delete_file) {
  auto lower = delete_file.lower_bounds.find(kDeleteFilePathFieldId);
  auto upper = delete_file.upper_bounds.find(kDeleteFilePathFieldId);
  if (lower == delete_file.lower_bounds.end() || upper == delete_file.upper_bounds.end() ||
      lower->second != upper->second) {
    return std::nullopt;
  }
  return lower->second;
}

std::vector<DataFile> DeletesFor(const DataFile& data_file, std::span<const DataFile> deletes) {
  std::vector<DataFile> out;
  const std::string& location = data_file.file_path;
  for (const auto& file : deletes) {
    auto lower = file.lower_bounds.find(kDeleteFilePathFieldId);
    auto upper = file.upper_bounds.find(kDeleteFilePathFieldId);
    if (lower != file.lower_bounds.end() && location < lower->second) continue;
    if (upper != file.upper_bounds.end() && location > upper->second) continue;
    out.push_back(file);
  }
  return out;
}

Result<std::string> FilesReadSql(const Schema& schema, std::span<const DataFile> files,
                                 std::span<const DataFile> deletes, bool positions) {
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
  const std::string file_column = duck::QuoteIdentifier(kScanFileColumn);
  const std::string pos_column = duck::QuoteIdentifier(kScanPosColumn);
  if (files.empty()) {
    if (positions) {
      select +=
          ", CAST(NULL AS VARCHAR) AS " + file_column + ", CAST(NULL AS BIGINT) AS " + pos_column;
    }
    return "SELECT " + select + " LIMIT 0";
  }

  // The data files some delete file may point at, and those delete files.
  std::vector<DataFile> deleted_from;
  std::set<std::string> delete_paths;
  for (const auto& file : files) {
    auto its = DeletesFor(file, deletes);
    if (its.empty()) continue;
    deleted_from.push_back(file);
    for (const auto& d : its) {
      DATABOX_ASSIGN_OR_RETURN(std::string path, DuckPathOf(d.file_path));
      delete_paths.insert(path);
    }
  }
  if (deleted_from.empty() && !positions) {
    return "SELECT " + select + " FROM read_parquet([" + paths + "], union_by_name = true)";
  }
  for (const auto& field : schema.fields()) {
    if (field.name == kScanPosColumn || field.name == kScanFileColumn) {
      return MakeError(ErrorKind::kData,
                       "column " + field.name +
                           " clashes with the row position DuckDB reads for position deletes; "
                           "rename it to read or change this table with merge-on-read");
    }
  }
  if (positions) select += ", " + file_column + ", " + pos_column;
  std::string from = "read_parquet([" + paths +
                     "], union_by_name = true, filename = " + duck::QuoteLiteral(kScanFileColumn) +
                     ", file_row_number = true) AS __f";
  if (!deleted_from.empty()) {
    std::string delete_list;
    for (const auto& path : delete_paths) {
      delete_list += (delete_list.empty() ? "" : ", ") + duck::QuoteLiteral(path);
    }
    DATABOX_ASSIGN_OR_RETURN(std::string located, PathLocationsSql(deleted_from, "__m"));
    from += " ANTI JOIN (SELECT __m.path AS " + file_column + ", __d.pos AS " + pos_column +
            " FROM read_parquet([" + delete_list + "]) AS __d JOIN " + located +
            " ON __d.file_path = __m.location) AS __x USING (" + file_column + ", " + pos_column +
            ")";
  }
  return "SELECT " + select + " FROM " + from;
}

}  // namespace databox::iceberg
