#include "iceberg/data_files.h"

#include <unistd.h>

#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <system_error>
#include <utility>

#include "duck/quote.h"
#include "duck/temp_table.h"
#include "fileio/durable.h"
#include "fileio/leftovers.h"
#include "fileio/location.h"

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

//! "<name>=<value>" path segment, bytes outside [A-Za-z0-9._-] percent-escaped.
std::string PartitionSegment(const std::string& name, const std::optional<Literal>& value) {
  auto escape = [](std::string_view text) {
    static constexpr char kHex[] = "0123456789ABCDEF";
    std::string out;
    for (unsigned char c : text) {
      if (std::isalnum(c) || c == '.' || c == '_' || c == '-') {
        out.push_back(static_cast<char>(c));
      } else {
        out += {'%', kHex[c >> 4], kHex[c & 0xf]};
      }
    }
    return out;
  };
  return escape(name) + "=" + (value ? escape(value->ToString()) : std::string("null"));
}

//! The SQL expression computing one partition field from the projected columns.
Result<std::string> PartitionExpression(const Schema& schema, const PartitionField& field) {
  const NestedField* source = schema.FindFieldById(field.source_id);
  if (source == nullptr) {
    return MakeError(ErrorKind::kData, "partition field " + field.name + " has no source column " +
                                           std::to_string(field.source_id));
  }
  std::string column;
  const std::string dotted = schema.FindNameById(field.source_id);
  size_t start = 0;
  for (size_t dot = dotted.find('.');; dot = dotted.find('.', start)) {
    if (!column.empty()) column += ".";
    column += QuoteIdentifier(dotted.substr(start, dot == std::string::npos ? dot : dot - start));
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  std::string utc = column;
  if (source->type.id() == TypeId::kTimestampTz) utc = "(" + column + " AT TIME ZONE 'UTC')";
  switch (field.transform.kind()) {
    case TransformKind::kIdentity:
      return column;
    case TransformKind::kVoid:
      return std::string("NULL");
    case TransformKind::kYear:
      return "(year(" + utc + ") - 1970)";
    case TransformKind::kMonth:
      return "((year(" + utc + ") - 1970) * 12 + month(" + utc + ") - 1)";
    case TransformKind::kDay:
      return "date_diff('day', DATE '1970-01-01', CAST(" + utc + " AS DATE))";
    case TransformKind::kHour:
      return "CAST(floor(epoch_us(" + utc + ") / 3600000000) AS BIGINT)";
    default:
      return MakeError(ErrorKind::kConfig,
                       "writing partition transform " + field.transform.ToString() +
                           " is not supported: use identity/year/month/day/hour");
  }
}

//! The partition value of `field` from its SQL result text.
Result<std::optional<Literal>> PartitionValue(const Schema& schema, const PartitionField& field,
                                              const std::optional<std::string>& text) {
  if (!text) return std::optional<Literal>();
  const NestedField* source = schema.FindFieldById(field.source_id);
  switch (field.transform.kind()) {
    case TransformKind::kIdentity: {
      DATABOX_ASSIGN_OR_RETURN(Literal value, Literal::Parse(source->type, *text));
      return std::optional<Literal>(std::move(value));
    }
    case TransformKind::kDay:
      return std::optional<Literal>(Literal::Date(static_cast<int32_t>(std::stoll(*text))));
    default:
      return std::optional<Literal>(Literal::Int(static_cast<int32_t>(std::stoll(*text))));
  }
}

//! Prefix of a staging folder's name: <prefix><pid>-<write id>.
constexpr std::string_view kStagingPrefix = ".databox-staging-";

}  // namespace

Result<std::vector<DataFile>> WriteFileGroup(duck::Connection& conn, fileio::FileIO& io,
                                             const Schema& schema, const std::string& sql,
                                             const std::string& data_location,
                                             std::vector<std::optional<Literal>> partition,
                                             const DataFileWriteOptions& options) {
  const std::string write_id = NewUuid();
  DATABOX_ASSIGN_OR_RETURN(fileio::Scheme scheme, fileio::SchemeOf(data_location));
  std::string local_data_dir;
  fs::path staging;
  if (scheme == fileio::Scheme::kLocal) {
    DATABOX_ASSIGN_OR_RETURN(local_data_dir, fileio::LocalPathOf(data_location));
    // The data folder must survive a crash with the files a commit names in it.
    DATABOX_RETURN_IF_ERROR(fileio::CreateFoldersDurably(local_data_dir));
    staging = fs::path(local_data_dir);
  } else {
    staging =
        options.staging_dir.empty() ? fs::temp_directory_path() : fs::path(options.staging_dir);
  }
  // A staging folder is named after its process: one a killed writer left is removed by the
  // next write into the same folder, never one a live writer is filling.
  fileio::RemoveLeftoversOfDeadProcessesOnce(staging, kStagingPrefix);
  staging /= std::string(kStagingPrefix) + std::to_string(::getpid()) + "-" + write_id;
  std::error_code ec;
  fs::create_directories(staging, ec);
  if (ec) {
    return MakeError(ErrorKind::kIo,
                     "cannot create staging folder " + staging.string() + ": " + ec.message());
  }
  struct Cleanup {
    fs::path dir;
    ~Cleanup() {
      std::error_code ignored;
      fs::remove_all(dir, ignored);
    }
  } cleanup{staging};

  duck::ParquetCopyOptions copy;
  copy.field_ids = FieldIdsOf(schema);
  copy.compression = options.compression;
  copy.compression_level = options.compression_level;
  copy.dictionary_size_limit = options.dictionary_size_limit;
  copy.file_size_bytes = options.target_file_size_bytes;
  copy.row_group_size_bytes = options.row_group_size_bytes;
  copy.file_name_pattern = "part_{i}";
  DATABOX_ASSIGN_OR_RETURN(auto written, duck::CopyToParquet(conn, sql, staging.string(), copy));

  std::vector<DataFile> files;
  int n = 0;
  for (const auto& stats : written) {
    if (stats.record_count == 0) continue;
    char suffix[32];
    std::snprintf(suffix, sizeof(suffix), "-%05d.parquet", n++);
    const std::string name = write_id + suffix;
    const std::string location = fileio::JoinLocation(data_location, name);
    if (scheme == fileio::Scheme::kLocal) {
      // A commit will name this file: its bytes must be on disk before the rename publishes it
      // (DuckDB's COPY is not relied on to fsync what it writes).
      DATABOX_RETURN_IF_ERROR(fileio::SyncFile(stats.path));
      fs::rename(stats.path, fs::path(local_data_dir) / name, ec);
      if (ec) {
        return MakeError(ErrorKind::kIo,
                         "cannot publish data file " + location + ": " + ec.message());
      }
    } else {
      DATABOX_RETURN_IF_ERROR(io.UploadFile(stats.path, location));
    }
    DATABOX_ASSIGN_OR_RETURN(DataFile file, DataFileFromStats(stats, schema, location, partition));
    files.push_back(std::move(file));
  }
  // One folder sync makes every rename above durable.
  if (scheme == fileio::Scheme::kLocal && !files.empty()) {
    DATABOX_RETURN_IF_ERROR(fileio::SyncFolder(local_data_dir));
  }
  return files;
}

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
  if (spec->is_unpartitioned()) {
    return WriteFileGroup(conn, io, *schema, projected, data_location, {}, options);
  }

  // One COPY per distinct partition tuple, over the input materialized once.
  const std::string stage = QuoteIdentifier("__databox_stage_" + NewUuid());
  DATABOX_RETURN_IF_ERROR(conn.Execute("CREATE TEMP TABLE " + stage + " AS " + projected));
  duck::DropTableOnExit drop(conn, stage);

  std::vector<std::string> exprs;
  std::string distinct;
  for (const auto& field : spec->fields) {
    DATABOX_ASSIGN_OR_RETURN(std::string expr, PartitionExpression(*schema, field));
    exprs.push_back("CAST(" + expr + " AS VARCHAR)");
    distinct += (distinct.empty() ? "" : ", ") + exprs.back();
  }
  DATABOX_ASSIGN_OR_RETURN(auto tuples,
                           conn.Query("SELECT DISTINCT " + distinct + " FROM " + stage));
  std::vector<DataFile> files;
  for (uint64_t row = 0; row < tuples.row_count(); ++row) {
    std::vector<std::optional<Literal>> partition;
    std::string where;
    std::string path = data_location;
    for (size_t i = 0; i < spec->fields.size(); ++i) {
      std::optional<std::string> text;
      if (!tuples.IsNull(i, row)) {
        DATABOX_ASSIGN_OR_RETURN(text, tuples.GetString(i, row));
      }
      DATABOX_ASSIGN_OR_RETURN(auto value, PartitionValue(*schema, spec->fields[i], text));
      where += (where.empty() ? "" : " AND ") + exprs[i] + " IS NOT DISTINCT FROM " +
               (text ? QuoteLiteral(*text) : std::string("NULL"));
      path = fileio::JoinLocation(path, PartitionSegment(spec->fields[i].name, value));
      partition.push_back(std::move(value));
    }
    DATABOX_ASSIGN_OR_RETURN(
        auto group, WriteFileGroup(conn, io, *schema, "SELECT * FROM " + stage + " WHERE " + where,
                                   path, std::move(partition), options));
    for (auto& file : group) files.push_back(std::move(file));
  }
  return files;
}

}  // namespace databox::iceberg
