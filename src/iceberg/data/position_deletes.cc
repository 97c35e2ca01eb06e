#include "iceberg/data/position_deletes.h"

#include <map>

#include "duck/quote.h"
#include "duck/temp_table.h"

namespace databox::iceberg {
namespace {

using duck::QuoteIdentifier;
using duck::QuoteLiteral;

//! The folder part of a location ("s3://b/t/data/x.parquet" -> "s3://b/t/data").
std::string FolderOf(const std::string& location) {
  const size_t slash = location.rfind('/');
  return slash == std::string::npos ? std::string() : location.substr(0, slash);
}

}  // namespace

Result<std::vector<DataFile>> WritePositionDeletes(duck::Connection& conn, fileio::FileIO& io,
                                                   std::span<const DataFile> data_files,
                                                   const std::string& positions_sql,
                                                   const DataFileWriteOptions& options) {
  std::map<std::string, const DataFile*> by_location;
  for (const auto& file : data_files) by_location[file.file_path] = &file;

  const std::string stage = QuoteIdentifier("__databox_positions_" + NewUuid());
  DATABOX_RETURN_IF_ERROR(
      conn.Execute("CREATE TEMP TABLE " + stage +
                   " AS SELECT CAST(file_path AS VARCHAR) AS file_path, CAST(pos AS BIGINT) AS "
                   "pos FROM (" +
                   positions_sql + ")"));
  duck::DropTableOnExit drop(conn, stage);
  DATABOX_ASSIGN_OR_RETURN(
      auto targets, conn.Query("SELECT DISTINCT file_path FROM " + stage + " ORDER BY file_path"));

  const Schema schema = PositionDeleteSchema();
  std::vector<DataFile> out;
  for (uint64_t row = 0; row < targets.row_count(); ++row) {
    if (targets.IsNull(0, row)) {
      return MakeError(ErrorKind::kInternal, "a position delete has no data file path");
    }
    DATABOX_ASSIGN_OR_RETURN(std::string location, targets.GetString(0, row));
    auto it = by_location.find(location);
    if (it == by_location.end()) {
      return MakeError(ErrorKind::kInternal,
                       "position deletes point at " + location + ", which is not a live data file");
    }
    const DataFile& data_file = *it->second;
    DATABOX_ASSIGN_OR_RETURN(
        auto written, WriteFileGroup(conn, io, schema,
                                     "SELECT file_path, pos FROM " + stage + " WHERE file_path = " +
                                         QuoteLiteral(location) + " ORDER BY pos",
                                     FolderOf(location), data_file.partition, options));
    for (auto& file : written) {
      file.content = DataFileContent::kPositionDeletes;
      file.lower_bounds[kDeleteFilePathFieldId] = location;
      file.upper_bounds[kDeleteFilePathFieldId] = location;
      out.push_back(std::move(file));
    }
  }
  return out;
}

}  // namespace databox::iceberg
