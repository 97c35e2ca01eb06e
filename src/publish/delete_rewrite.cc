#include "publish/delete_rewrite.h"

#include <system_error>

#include "duck/parquet_copy.h"
#include "duck/quote.h"
#include "iceberg/data/data_files.h"
#include "iceberg/data/scan_sql.h"
#include "iceberg/spec/position_delete_files.h"

namespace databox::publish {
namespace {

//! The file_path bounds with each bound mapped to its target (dropped when it names no data
//! file we know: a reader then checks the file against every data file).
void MapPathBounds(iceberg::DataFile& file, const std::map<std::string, std::string>& targets) {
  for (auto* bounds : {&file.lower_bounds, &file.upper_bounds}) {
    auto it = bounds->find(iceberg::kDeleteFilePathFieldId);
    if (it == bounds->end()) continue;
    auto target = targets.find(it->second);
    if (target == targets.end()) {
      bounds->erase(it);
    } else {
      it->second = target->second;
    }
  }
}

//! A VALUES list of (source, target) pairs.
std::string MappingSql(const std::map<std::string, std::string>& targets) {
  std::string sql;
  for (const auto& [source, target] : targets) {
    sql += sql.empty() ? "VALUES " : ", ";
    sql += "(" + duck::QuoteLiteral(source) + ", " + duck::QuoteLiteral(target) + ")";
  }
  return sql;
}

}  // namespace

iceberg::DataFile PublishedDeleteFile(const iceberg::DataFile& source, const std::string& target,
                                      uint64_t size,
                                      const std::map<std::string, std::string>& data_targets) {
  iceberg::DataFile file = source;
  file.file_path = target;
  file.file_size_in_bytes = static_cast<int64_t>(size);
  file.column_sizes.clear();
  file.value_counts.clear();
  file.null_value_counts.clear();
  file.nan_value_counts.clear();
  file.split_offsets.reset();
  MapPathBounds(file, data_targets);
  return file;
}

Result<iceberg::DataFile> RewritePositionDeletes(
    duck::Connection& conn, const iceberg::DataFile& source, const std::string& target,
    const std::map<std::string, std::string>& data_targets, fileio::FileIO& target_io,
    const std::filesystem::path& scratch) {
  DATABOX_ASSIGN_OR_RETURN(std::string path, iceberg::DuckPathOf(source.file_path));
  const std::string select = "SELECT m.target AS file_path, d.pos AS pos FROM read_parquet(" +
                             duck::QuoteLiteral(path) + ") d JOIN (" + MappingSql(data_targets) +
                             ") m(source, target) ON d.file_path = m.source ORDER BY 1, 2";
  const std::filesystem::path local =
      scratch / (std::to_string(std::hash<std::string>{}(target)) + ".parquet");
  duck::ParquetCopyOptions options;
  options.field_ids = iceberg::FieldIdsOf(iceberg::PositionDeleteSchema());
  options.overwrite = true;
  auto stats = duck::CopyToParquet(conn, select, local.string(), options);
  if (!stats) return std::unexpected(stats.error().WithContext("rewriting " + source.file_path));
  if (stats->size() != 1) {
    return MakeError(ErrorKind::kInternal, "rewriting " + source.file_path + " wrote " +
                                               std::to_string(stats->size()) + " files, not one");
  }
  auto uploaded = target_io.UploadFile(local.string(), target);
  std::error_code ignored;
  std::filesystem::remove(local, ignored);
  DATABOX_RETURN_IF_ERROR(uploaded);
  iceberg::DataFile file =
      PublishedDeleteFile(source, target, stats->front().file_size_bytes, data_targets);
  file.record_count = static_cast<int64_t>(stats->front().record_count);
  return file;
}

}  // namespace databox::publish
