#include "iceberg/data/data_files.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <system_error>
#include <utility>

#include "duck/quote.h"
#include "duck/temp_table.h"
#include "fileio/durable.h"
#include "fileio/leftovers.h"
#include "fileio/location.h"
#include "iceberg/data/partition_sql.h"
#include "iceberg/data/scan_sql.h"
#include "iceberg/data/sort_sql.h"

namespace databox::iceberg {
namespace {

namespace fs = std::filesystem;
using duck::QuoteIdentifier;
using duck::QuoteLiteral;

//! A leaf field found at a RETURN_STATS column path.
struct LeafField {
  const NestedField* field = nullptr;
  bool repeated = false;  //!< inside a list or map: no bounds (values are per element)
};

void IndexField(const NestedField& field, const std::string& path, bool repeated,
                std::map<std::string, LeafField>& out) {
  const Type& type = field.type;
  switch (type.id()) {
    case TypeId::kStruct:
      for (const auto& child : type.fields()) {
        IndexField(child, path + "." + child.name, repeated, out);
      }
      return;
    case TypeId::kList:
      IndexField(type.element(), path + ".element", true, out);
      return;
    case TypeId::kMap:
      IndexField(type.key(), path + ".key", true, out);
      IndexField(type.value(), path + ".value", true, out);
      return;
    default:
      out[path] = LeafField{&field, repeated};
  }
}

duck::FieldIdNode FieldIdNodeOf(const NestedField& field, std::string name) {
  duck::FieldIdNode node{.name = std::move(name), .id = field.id, .children = {}};
  const Type& type = field.type;
  if (type.id() == TypeId::kStruct) {
    for (const auto& child : type.fields())
      node.children.push_back(FieldIdNodeOf(child, child.name));
  } else if (type.id() == TypeId::kList) {
    node.children.push_back(FieldIdNodeOf(type.element(), "element"));
  } else if (type.id() == TypeId::kMap) {
    node.children.push_back(FieldIdNodeOf(type.key(), "key"));
    node.children.push_back(FieldIdNodeOf(type.value(), "value"));
  }
  return node;
}

//! Decodes the code point starting at s[i] (valid UTF-8 assumed), and its byte length.
std::pair<uint32_t, size_t> DecodeUtf8(std::string_view s, size_t i) {
  const auto b = static_cast<unsigned char>(s[i]);
  auto cont = [&](size_t k) {
    return static_cast<uint32_t>(static_cast<unsigned char>(s[i + k]) & 0x3f);
  };
  if (b < 0x80) return {b, 1};
  if ((b >> 5) == 0x6 && i + 1 < s.size()) return {((b & 0x1fu) << 6) | cont(1), 2};
  if ((b >> 4) == 0xe && i + 2 < s.size())
    return {((b & 0x0fu) << 12) | (cont(1) << 6) | cont(2), 3};
  if (i + 3 < s.size())
    return {((b & 0x07u) << 18) | (cont(1) << 12) | (cont(2) << 6) | cont(3), 4};
  return {b, 1};
}

std::string EncodeUtf8(uint32_t cp) {
  std::string out;
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xc0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3f)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xe0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3f)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3f)));
  } else {
    out.push_back(static_cast<char>(0xf0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3f)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3f)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3f)));
  }
  return out;
}

//! Start offsets of the code points of `s` that end at or before `max_bytes`.
std::vector<size_t> CodePointStarts(std::string_view s, size_t max_bytes) {
  std::vector<size_t> starts;
  for (size_t i = 0; i < s.size();) {
    const size_t len = DecodeUtf8(s, i).second;
    if (i + len > max_bytes) break;
    starts.push_back(i);
    i += len;
  }
  return starts;
}

std::optional<std::string> BoundBytes(const Type& type, const std::string& text, bool upper) {
  if (type.id() == TypeId::kString) {
    if (text.size() <= kStringBoundLength) return text;  // UTF-8 bytes are the binary form
    if (!upper) return TruncateLowerBound(text, kStringBoundLength);
    return TruncateUpperBound(text, kStringBoundLength);
  }
  auto literal = Literal::Parse(type, text);
  if (!literal) return std::nullopt;
  if (const auto* d = std::get_if<double>(&literal->value()); d != nullptr && std::isnan(*d)) {
    return std::nullopt;
  }
  if (const auto* f = std::get_if<float>(&literal->value()); f != nullptr && std::isnan(*f)) {
    return std::nullopt;
  }
  const Bytes bytes = literal->ToBytes();
  if ((type.id() == TypeId::kBinary || type.id() == TypeId::kFixed) &&
      bytes.size() > kStringBoundLength) {
    return std::nullopt;
  }
  return std::string(bytes.begin(), bytes.end());
}

//! Prefix of a staging folder's name: <prefix><pid>-<write id>.
constexpr std::string_view kStagingPrefix = ".databox-staging-";

//! A private folder DuckDB writes into before the files are published (removed, with whatever
//! is left in it, when this goes away). A local table's is inside its data folder, so that
//! publishing is a rename; a remote table's is under options.staging_dir (or the temp folder).
class Staging {
 public:
  static Result<std::unique_ptr<Staging>> Make(const std::string& data_location,
                                               const DataFileWriteOptions& options) {
    auto staging = std::unique_ptr<Staging>(new Staging());
    staging->write_id_ = NewUuid();
    DATABOX_ASSIGN_OR_RETURN(staging->scheme_, fileio::SchemeOf(data_location));
    fs::path dir;
    if (staging->local()) {
      DATABOX_ASSIGN_OR_RETURN(std::string local, fileio::LocalPathOf(data_location));
      // The data folder must survive a crash with the files a commit names in it.
      DATABOX_RETURN_IF_ERROR(fileio::CreateFoldersDurably(local));
      dir = fs::path(local);
    } else {
      dir = options.staging_dir.empty() ? fs::temp_directory_path() : fs::path(options.staging_dir);
    }
    // A staging folder is named after its process: one a killed writer left is removed by the
    // next write into the same folder, never one a live writer is filling.
    fileio::RemoveLeftoversOfDeadProcessesOnce(dir, kStagingPrefix);
    dir /= std::string(kStagingPrefix) + std::to_string(::getpid()) + "-" + staging->write_id_;
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) {
      return MakeError(ErrorKind::kIo,
                       "cannot create staging folder " + dir.string() + ": " + ec.message());
    }
    staging->dir_ = dir;
    return staging;
  }
  ~Staging() {
    std::error_code ignored;
    if (!dir_.empty()) fs::remove_all(dir_, ignored);
  }
  Staging(const Staging&) = delete;
  Staging& operator=(const Staging&) = delete;

  const fs::path& dir() const { return dir_; }

  //! Publishes the written files (empty ones are dropped) under `folder_location` as
  //! <write id>-<n>.parquet, n counting over every call, and returns their DataFiles.
  Result<std::vector<DataFile>> Publish(fileio::FileIO& io, const Schema& schema,
                                        const std::vector<duck::ParquetFileStats>& written,
                                        const std::string& folder_location,
                                        const std::vector<std::optional<Literal>>& partition) {
    std::vector<DataFile> files;
    std::string local_folder;
    if (local()) {
      DATABOX_ASSIGN_OR_RETURN(local_folder, fileio::LocalPathOf(folder_location));
      DATABOX_RETURN_IF_ERROR(fileio::CreateFoldersDurably(local_folder));
    }
    for (const auto& stats : written) {
      if (stats.record_count == 0) continue;
      char suffix[32];
      std::snprintf(suffix, sizeof(suffix), "-%05d.parquet", next_file_++);
      const std::string name = write_id_ + suffix;
      const std::string location = fileio::JoinLocation(folder_location, name);
      if (local()) {
        // A commit will name this file: its bytes must be on disk before the rename publishes
        // it (DuckDB's COPY is not relied on to fsync what it writes).
        DATABOX_RETURN_IF_ERROR(fileio::SyncFile(stats.path));
        std::error_code ec;
        fs::rename(stats.path, fs::path(local_folder) / name, ec);
        if (ec) {
          return MakeError(ErrorKind::kIo,
                           "cannot publish data file " + location + ": " + ec.message());
        }
      } else {
        DATABOX_RETURN_IF_ERROR(io.UploadFile(stats.path, location));
      }
      DATABOX_ASSIGN_OR_RETURN(DataFile file,
                               DataFileFromStats(stats, schema, location, partition));
      files.push_back(std::move(file));
    }
    // One folder sync makes every rename above durable.
    if (local() && !files.empty()) DATABOX_RETURN_IF_ERROR(fileio::SyncFolder(local_folder));
    return files;
  }

 private:
  Staging() = default;
  bool local() const { return scheme_ == fileio::Scheme::kLocal; }

  std::string write_id_;
  fileio::Scheme scheme_ = fileio::Scheme::kLocal;
  fs::path dir_;
  int next_file_ = 0;
};

duck::ParquetCopyOptions CopyOptions(const Schema& schema, const DataFileWriteOptions& options) {
  duck::ParquetCopyOptions copy;
  copy.field_ids = FieldIdsOf(schema);
  copy.compression = options.compression;
  copy.compression_level = options.compression_level;
  copy.dictionary_size_limit = options.dictionary_size_limit;
  copy.row_group_size_bytes = options.row_group_size_bytes;
  copy.file_name_pattern = "part_{i}";
  return copy;
}

//! Column names of the partition values in the partitioned COPY.
std::string PartitionKeyColumn(size_t i) { return "__databox_partition_" + std::to_string(i); }

//! A new folder for one staging step's files under `parent`.
Result<fs::path> NewStagingFolder(const fs::path& parent, const std::string& kind) {
  const fs::path dir = parent / (kind + "-" + NewUuid());
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) {
    return MakeError(ErrorKind::kIo,
                     "cannot create staging folder " + dir.string() + ": " + ec.message());
  }
  return dir;
}

//! The files of one partition tuple: DuckDB's partitioned COPY cannot also roll files at a
//! size, so a file above the target is split by a second COPY of it (into files of the target
//! size); smaller files are kept as written.
Result<std::vector<duck::ParquetFileStats>> SplitLargeFiles(
    duck::Connection& conn, const Schema& schema, std::vector<duck::ParquetFileStats> files,
    const fs::path& split_dir, const DataFileWriteOptions& options) {
  std::vector<duck::ParquetFileStats> out;
  for (auto& file : files) {
    if (file.file_size_bytes <= options.target_file_size_bytes) {
      out.push_back(std::move(file));
      continue;
    }
    duck::ParquetCopyOptions copy = CopyOptions(schema, options);
    copy.file_size_bytes = options.target_file_size_bytes;
    // DuckDB rolls files at row-group boundaries: row groups of about the target size (by the
    // file's bytes per row) let it split the file, whatever row group size it was written with.
    copy.row_group_size = std::max<uint64_t>(
        1, static_cast<uint64_t>(static_cast<double>(file.record_count) *
                                 static_cast<double>(options.target_file_size_bytes) /
                                 static_cast<double>(file.file_size_bytes)));
    DATABOX_ASSIGN_OR_RETURN(const fs::path dir, NewStagingFolder(split_dir, "split"));
    DATABOX_ASSIGN_OR_RETURN(
        auto parts,
        duck::CopyToParquet(conn,
                            // Not the partition column its Hive-style folder name would add.
                            "SELECT * FROM read_parquet(" + QuoteLiteral(file.path) +
                                ", hive_partitioning = false)",
                            dir.string(), copy));
    std::error_code ignored;
    fs::remove(file.path, ignored);
    for (auto& part : parts) out.push_back(std::move(part));
  }
  return out;
}

//! Writes `sorted_sql` (a query ending in the sort order's ORDER BY) into files under `parent`,
//! each holding its rows in that order. One COPY into one file: DuckDB keeps an ORDER BY's order
//! only there; a COPY that rolls files at a size (or splits them by partition) writes row groups
//! in the order its threads finish them. A file above the target size is then cut into
//! consecutive row ranges of about that size, each copied in its file order.
Result<std::vector<duck::ParquetFileStats>> WriteSortedFiles(duck::Connection& conn,
                                                             const Schema& schema,
                                                             const std::string& sorted_sql,
                                                             const fs::path& parent,
                                                             const DataFileWriteOptions& options) {
  DATABOX_ASSIGN_OR_RETURN(const fs::path dir, NewStagingFolder(parent, "sorted"));
  const duck::ParquetCopyOptions copy = CopyOptions(schema, options);
  DATABOX_ASSIGN_OR_RETURN(
      auto written, duck::CopyToParquet(conn, sorted_sql, (dir / "sorted.parquet").string(), copy));
  // The cut reads each row's position as read_parquet's file_row_number, which DuckDB refuses
  // for a file with a column of that name: such a table keeps its one (larger) sorted file.
  const bool can_cut = schema.FindFieldByName(kScanPosColumn) == nullptr;
  std::vector<duck::ParquetFileStats> out;
  for (auto& file : written) {
    if (!can_cut || file.file_size_bytes <= options.target_file_size_bytes ||
        file.record_count < 2) {
      out.push_back(std::move(file));
      continue;
    }
    const uint64_t pieces = std::min<uint64_t>(
        file.record_count, (file.file_size_bytes + options.target_file_size_bytes - 1) /
                               options.target_file_size_bytes);
    const uint64_t rows = (file.record_count + pieces - 1) / pieces;
    for (uint64_t first = 0; first < file.record_count; first += rows) {
      const std::string range =
          "SELECT * EXCLUDE (file_row_number) FROM read_parquet(" + QuoteLiteral(file.path) +
          ", file_row_number = true, hive_partitioning = false) WHERE file_row_number >= " +
          std::to_string(first) + " AND file_row_number < " + std::to_string(first + rows) +
          " ORDER BY file_row_number";
      const fs::path piece = dir / ("piece-" + std::to_string(first) + ".parquet");
      DATABOX_ASSIGN_OR_RETURN(auto parts, duck::CopyToParquet(conn, range, piece.string(), copy));
      for (auto& part : parts) out.push_back(std::move(part));
    }
    std::error_code ignored;
    fs::remove(file.path, ignored);
  }
  return out;
}

//! The files of one partition tuple, as DuckDB's partitioned COPY wrote them (rows in no
//! particular order), rewritten in the sort order `order_by`: a second pass over the partition's
//! rows, which keeps the sort to one partition's rows at a time.
Result<std::vector<duck::ParquetFileStats>> SortFiles(duck::Connection& conn, const Schema& schema,
                                                      std::vector<duck::ParquetFileStats> files,
                                                      const std::string& order_by,
                                                      const fs::path& parent,
                                                      const DataFileWriteOptions& options) {
  std::string paths;
  for (const auto& file : files) paths += (paths.empty() ? "" : ", ") + QuoteLiteral(file.path);
  // Not the partition column its Hive-style folder name would add.
  DATABOX_ASSIGN_OR_RETURN(auto sorted,
                           WriteSortedFiles(conn, schema,
                                            "SELECT * FROM read_parquet([" + paths +
                                                "], hive_partitioning = false) " + order_by,
                                            parent, options));
  for (const auto& file : files) {
    std::error_code ignored;
    fs::remove(file.path, ignored);
  }
  return sorted;
}

}  // namespace

Result<std::vector<DataFile>> WriteFileGroup(duck::Connection& conn, fileio::FileIO& io,
                                             const Schema& schema, const std::string& sql,
                                             const std::string& data_location,
                                             std::vector<std::optional<Literal>> partition,
                                             const DataFileWriteOptions& options) {
  DATABOX_ASSIGN_OR_RETURN(auto staging, Staging::Make(data_location, options));
  duck::ParquetCopyOptions copy = CopyOptions(schema, options);
  copy.file_size_bytes = options.target_file_size_bytes;
  DATABOX_ASSIGN_OR_RETURN(auto written,
                           duck::CopyToParquet(conn, sql, staging->dir().string(), copy));
  return staging->Publish(io, schema, written, data_location, partition);
}

namespace {

//! One COPY partitioned by the spec's values (its rows read once), then each partition's files
//! published under data/<field>=<value>/...
Result<std::vector<DataFile>> WritePartitionedFiles(duck::Connection& conn, fileio::FileIO& io,
                                                    const Schema& schema, const PartitionSpec& spec,
                                                    const std::string& projected_sql,
                                                    const std::string& order_by,
                                                    const std::string& data_location,
                                                    const DataFileWriteOptions& options) {
  std::string select = "SELECT *";
  duck::ParquetCopyOptions copy = CopyOptions(schema, options);
  for (size_t i = 0; i < spec.fields.size(); ++i) {
    DATABOX_ASSIGN_OR_RETURN(std::string expr, PartitionExpression(schema, spec.fields[i]));
    select += ", CAST(" + expr + " AS VARCHAR) AS " + QuoteIdentifier(PartitionKeyColumn(i));
    copy.partition_by.push_back(PartitionKeyColumn(i));
  }
  select += " FROM (" + projected_sql + ") AS projected";
  DATABOX_ASSIGN_OR_RETURN(auto staging, Staging::Make(data_location, options));
  DATABOX_ASSIGN_OR_RETURN(
      auto written, duck::CopyToParquet(conn, select, (staging->dir() / "all").string(), copy));

  // The files of each partition tuple, by the text of its values.
  std::map<std::vector<std::optional<std::string>>, std::vector<duck::ParquetFileStats>> groups;
  for (auto& file : written) {
    std::vector<std::optional<std::string>> key;
    for (size_t i = 0; i < spec.fields.size(); ++i) {
      auto it = file.partition_keys.find(PartitionKeyColumn(i));
      if (it == file.partition_keys.end()) {
        return MakeError(ErrorKind::kInternal,
                         "DuckDB reported no partition value for " + file.path);
      }
      key.push_back(it->second);
    }
    groups[std::move(key)].push_back(std::move(file));
  }
  std::vector<DataFile> files;
  for (auto& [key, group] : groups) {
    std::vector<std::optional<Literal>> partition;
    std::string folder = data_location;
    for (size_t i = 0; i < spec.fields.size(); ++i) {
      DATABOX_ASSIGN_OR_RETURN(auto value, PartitionValueOf(schema, spec.fields[i], key[i]));
      folder = fileio::JoinLocation(folder, PartitionSegment(spec.fields[i].name, value));
      partition.push_back(std::move(value));
    }
    std::vector<duck::ParquetFileStats> sized;
    if (order_by.empty()) {
      DATABOX_ASSIGN_OR_RETURN(
          sized, SplitLargeFiles(conn, schema, std::move(group), staging->dir(), options));
    } else {
      DATABOX_ASSIGN_OR_RETURN(
          sized, SortFiles(conn, schema, std::move(group), order_by, staging->dir(), options));
    }
    DATABOX_ASSIGN_OR_RETURN(auto published,
                             staging->Publish(io, schema, sized, folder, partition));
    for (auto& file : published) files.push_back(std::move(file));
  }
  return files;
}

}  // namespace

std::string DuckTypeOf(const Type& type) {
  switch (type.id()) {
    case TypeId::kBoolean:
      return "BOOLEAN";
    case TypeId::kInt:
      return "INTEGER";
    case TypeId::kLong:
      return "BIGINT";
    case TypeId::kFloat:
      return "FLOAT";
    case TypeId::kDouble:
      return "DOUBLE";
    case TypeId::kDecimal:
      return "DECIMAL(" + std::to_string(type.precision()) + ", " + std::to_string(type.scale()) +
             ")";
    case TypeId::kDate:
      return "DATE";
    case TypeId::kTime:
      return "TIME";
    case TypeId::kTimestamp:
      return "TIMESTAMP";
    case TypeId::kTimestampTz:
      return "TIMESTAMPTZ";
    case TypeId::kString:
      return "VARCHAR";
    case TypeId::kUuid:
      return "UUID";
    case TypeId::kFixed:
    case TypeId::kBinary:
      return "BLOB";
    case TypeId::kStruct: {
      std::string out = "STRUCT(";
      for (size_t i = 0; i < type.fields().size(); ++i) {
        if (i > 0) out += ", ";
        out += QuoteIdentifier(type.fields()[i].name) + " " + DuckTypeOf(type.fields()[i].type);
      }
      return out + ")";
    }
    case TypeId::kList:
      return DuckTypeOf(type.element().type) + "[]";
    case TypeId::kMap:
      return "MAP(" + DuckTypeOf(type.key().type) + ", " + DuckTypeOf(type.value().type) + ")";
  }
  return "VARCHAR";
}

std::vector<duck::FieldIdNode> FieldIdsOf(const Schema& schema) {
  std::vector<duck::FieldIdNode> nodes;
  for (const auto& field : schema.fields()) nodes.push_back(FieldIdNodeOf(field, field.name));
  return nodes;
}

Result<std::string> ProjectToSchema(duck::Connection& conn, const Schema& schema,
                                    const std::string& select_sql) {
  // Column names and DuckDB types of the input; a cast is added only where the type differs
  // (a no-op CAST in the projection measurably slows DuckDB's parallel COPY).
  DATABOX_ASSIGN_OR_RETURN(auto described,
                           conn.Query("DESCRIBE SELECT * FROM (" + select_sql + ") AS input"));
  std::map<std::string, std::string> input;
  for (uint64_t row = 0; row < described.row_count(); ++row) {
    DATABOX_ASSIGN_OR_RETURN(std::string name, described.GetString(0, row));
    DATABOX_ASSIGN_OR_RETURN(std::string type, described.GetString(1, row));
    std::erase(type, ' ');
    input[name] = type;
  }
  std::string select;
  for (const auto& field : schema.fields()) {
    if (!select.empty()) select += ", ";
    const std::string name = QuoteIdentifier(field.name);
    auto it = input.find(field.name);
    std::string target = DuckTypeOf(field.type);
    if (it == input.end()) {
      select += "CAST(NULL AS " + target + ") AS " + name;
      continue;
    }
    std::string compact = target;
    std::erase(compact, ' ');
    if (field.type.is_primitive() && it->second != compact) {
      select += "CAST(" + name + " AS " + target + ") AS " + name;
    } else {
      select += name;
    }
    input.erase(it);
  }
  if (!input.empty()) {
    return MakeError(ErrorKind::kData, "column " + input.begin()->first +
                                           " is not in the table schema: evolve the schema first");
  }
  return "SELECT " + select + " FROM (" + select_sql + ") AS input";
}

std::string TruncateLowerBound(std::string_view value, size_t max_bytes) {
  if (value.size() <= max_bytes) return std::string(value);
  const auto starts = CodePointStarts(value, max_bytes);
  size_t end = 0;
  if (!starts.empty()) end = starts.back() + DecodeUtf8(value, starts.back()).second;
  return std::string(value.substr(0, end));
}

std::optional<std::string> TruncateUpperBound(std::string_view value, size_t max_bytes) {
  if (value.size() <= max_bytes) return std::string(value);
  auto starts = CodePointStarts(value, max_bytes);
  while (!starts.empty()) {
    const size_t last = starts.back();
    starts.pop_back();
    uint32_t cp = DecodeUtf8(value, last).first + 1;
    if (cp >= 0xd800 && cp <= 0xdfff) cp = 0xe000;
    if (cp <= 0x10ffff) return std::string(value.substr(0, last)) + EncodeUtf8(cp);
  }
  return std::nullopt;
}

Result<DataFile> DataFileFromStats(const duck::ParquetFileStats& stats, const Schema& schema,
                                   std::string location,
                                   std::vector<std::optional<Literal>> partition) {
  std::map<std::string, LeafField> leaves;
  for (const auto& field : schema.fields()) IndexField(field, field.name, false, leaves);

  DataFile file;
  file.file_path = std::move(location);
  file.partition = std::move(partition);
  file.record_count = static_cast<int64_t>(stats.record_count);
  file.file_size_in_bytes = static_cast<int64_t>(stats.file_size_bytes);
  for (const auto& [key, column] : stats.columns) {
    std::string path;
    for (const auto& part : column.path) path += (path.empty() ? "" : ".") + part;
    auto it = leaves.find(path);
    if (it == leaves.end()) continue;
    const NestedField& field = *it->second.field;
    const int32_t id = field.id;
    if (column.column_size_bytes)
      file.column_sizes[id] = static_cast<int64_t>(*column.column_size_bytes);
    if (column.num_values) file.value_counts[id] = static_cast<int64_t>(*column.num_values);
    if (column.null_count) file.null_value_counts[id] = static_cast<int64_t>(*column.null_count);
    const bool floating = field.type.id() == TypeId::kFloat || field.type.id() == TypeId::kDouble;
    if (floating && column.has_nan == false) file.nan_value_counts[id] = 0;
    if (it->second.repeated || (floating && column.has_nan != false)) continue;
    if (column.min) {
      if (auto bound = BoundBytes(field.type, *column.min, false)) file.lower_bounds[id] = *bound;
    }
    if (column.max) {
      if (auto bound = BoundBytes(field.type, *column.max, true)) file.upper_bounds[id] = *bound;
    }
  }
  return file;
}

Result<DataFileWriteOptions> WithTableProperties(const TableMetadata& metadata,
                                                 DataFileWriteOptions options) {
  const auto& properties = metadata.properties;
  auto refuse = [&](const std::string& key, std::string_view why) {
    return std::unexpected(TablePropertyError("at " + metadata.location, properties, key, why));
  };
  if (auto it = properties.find(kCompressionCodecProperty); it != properties.end()) {
    options.compression = it->second;
  }
  auto level = WholeNumberProperty(properties, kCompressionLevelProperty);
  if (!level || (*level && (**level < 1 || **level > 22))) {
    return refuse(kCompressionLevelProperty, "not a zstd level from 1 to 22");
  }
  if (*level) options.compression_level = static_cast<int>(**level);
  auto size = WholeNumberProperty(properties, kTargetFileSizeProperty);
  if (!size) return refuse(kTargetFileSizeProperty, "not a whole number of bytes");
  if (*size) {
    if (**size == 0) return refuse(kTargetFileSizeProperty, "a file size must be above 0");
    options.target_file_size_bytes = static_cast<uint64_t>(**size);
  }
  auto group = WholeNumberProperty(properties, kRowGroupSizeBytesProperty);
  if (!group) return refuse(kRowGroupSizeBytesProperty, "not a whole number of bytes");
  if (*group) {
    if (**group == 0) return refuse(kRowGroupSizeBytesProperty, "a row group size must be above 0");
    options.row_group_size_bytes = static_cast<uint64_t>(**group);
  }
  return options;
}

Result<std::vector<DataFile>> WriteDataFiles(duck::Connection& conn, fileio::FileIO& io,
                                             const TableMetadata& metadata,
                                             const std::string& select_sql,
                                             const DataFileWriteOptions& requested) {
  DATABOX_ASSIGN_OR_RETURN(const DataFileWriteOptions options,
                           WithTableProperties(metadata, requested));
  const Schema* schema = metadata.CurrentSchema();
  const PartitionSpec* spec = metadata.DefaultSpec();
  if (schema == nullptr || spec == nullptr) {
    return MakeError(ErrorKind::kData,
                     "table at " + metadata.location + " has no current schema or default spec");
  }
  DATABOX_ASSIGN_OR_RETURN(std::string projected, ProjectToSchema(conn, *schema, select_sql));
  const std::string data_location = fileio::JoinLocation(metadata.location, "data");
  const SortOrder* order = metadata.DefaultSortOrder();
  const bool sorted = order != nullptr && !order->is_unsorted();
  // Partition values and sort terms may call the bucket function.
  if (sorted || !spec->is_unpartitioned()) DATABOX_RETURN_IF_ERROR(PreparePartitionFunctions(conn));
  std::string order_by;
  if (sorted) {
    DATABOX_ASSIGN_OR_RETURN(order_by, SortOrderClause(*schema, *order));
  }
  if (!spec->is_unpartitioned()) {
    return WritePartitionedFiles(conn, io, *schema, *spec, projected, order_by, data_location,
                                 options);
  }
  if (order_by.empty()) {
    return WriteFileGroup(conn, io, *schema, projected, data_location, {}, options);
  }
  DATABOX_ASSIGN_OR_RETURN(auto staging, Staging::Make(data_location, options));
  DATABOX_ASSIGN_OR_RETURN(
      auto written,
      WriteSortedFiles(conn, *schema, "SELECT * FROM (" + projected + ") AS rows " + order_by,
                       staging->dir(), options));
  return staging->Publish(io, *schema, written, data_location, {});
}

}  // namespace databox::iceberg
