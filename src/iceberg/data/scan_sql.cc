#include "iceberg/data/scan_sql.h"

#include <set>

#include "duck/quote.h"
#include "fileio/location.h"
#include "iceberg/data/data_files.h"
#include "iceberg/spec/position_delete_files.h"

namespace databox::iceberg {
namespace {

void CollectIds(const NestedField& field, std::set<int32_t>& ids) {
  ids.insert(field.id);
  for (const auto& child : field.type.fields()) CollectIds(child, ids);
}

}  // namespace

Result<std::string> ReadSql(const Table& table, std::string_view ref) {
  DATABOX_ASSIGN_OR_RETURN(LiveFiles files, table.Live(ref));
  return FilesReadSql(table.schema(), files.data, files.deletes);
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
