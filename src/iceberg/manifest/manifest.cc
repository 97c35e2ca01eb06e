#include "iceberg/manifest/manifest.h"

#include <cmath>
#include <nlohmann/json.hpp>

#include "iceberg/avro/container_reader.h"
#include "iceberg/manifest/manifest_internal.h"

namespace databox::iceberg {
namespace {

using avro::Value;
using manifest_internal::AvroField;
using manifest_internal::AvroIntKeyMap;
using manifest_internal::AvroList;
using manifest_internal::Json;
using manifest_internal::RecordView;

//! The int-keyed maps of data_file: name, field id, key id, value id.
struct MapField {
  std::string_view name;
  int32_t id;
  int32_t key_id;
  int32_t value_id;
};
constexpr MapField kCountMaps[] = {{"column_sizes", 108, 117, 118},
                                   {"value_counts", 109, 119, 120},
                                   {"null_value_counts", 110, 121, 122},
                                   {"nan_value_counts", 137, 138, 139}};
constexpr MapField kBoundMaps[] = {{"lower_bounds", 125, 126, 127},
                                   {"upper_bounds", 128, 129, 130}};

std::map<int32_t, int64_t> DataFile::*CountMember(std::string_view name) {
  if (name == "column_sizes") return &DataFile::column_sizes;
  if (name == "value_counts") return &DataFile::value_counts;
  if (name == "null_value_counts") return &DataFile::null_value_counts;
  return &DataFile::nan_value_counts;
}

std::map<int32_t, std::string> DataFile::*BoundMember(std::string_view name) {
  return name == "lower_bounds" ? &DataFile::lower_bounds : &DataFile::upper_bounds;
}

Value OptionalLong(const std::optional<int64_t>& v) { return v ? Value::Long(*v) : Value::Null(); }

template <typename T>
Value IntKeyMap(const std::map<int32_t, T>& map) {
  Value::Array items;
  for (const auto& [key, value] : map) {
    Value v;
    if constexpr (std::is_same_v<T, int64_t>) {
      v = Value::Long(value);
    } else {
      v = Value::Bytes(value);
    }
    items.push_back(Value::Record({{"key", Value::Int(key)}, {"value", std::move(v)}}));
  }
  return Value::ArrayOf(std::move(items));
}

Result<Value> EntryToAvro(const ManifestEntry& entry, const Type& partition_type) {
  const DataFile& f = entry.data_file;
  const auto& fields = partition_type.fields();
  if (f.partition.size() != fields.size()) {
    return MakeError(ErrorKind::kInternal, "manifest: data file " + f.file_path + " has " +
                                               std::to_string(f.partition.size()) +
                                               " partition values, spec has " +
                                               std::to_string(fields.size()) + " fields");
  }
  Value::Entries partition;
  for (size_t i = 0; i < fields.size(); ++i) {
    partition.emplace_back(fields[i].name, f.partition[i]
                                               ? manifest_internal::LiteralToAvro(*f.partition[i])
                                               : Value::Null());
  }
  Value::Entries data_file = {
      {"content", Value::Int(static_cast<int32_t>(f.content))},
      {"file_path", Value::String(f.file_path)},
      {"file_format", Value::String(f.file_format)},
      {"partition", Value::Record(std::move(partition))},
      {"record_count", Value::Long(f.record_count)},
      {"file_size_in_bytes", Value::Long(f.file_size_in_bytes)},
  };
  for (const MapField& m : kCountMaps)
    data_file.emplace_back(m.name, IntKeyMap(f.*CountMember(m.name)));
  for (const MapField& m : kBoundMaps)
    data_file.emplace_back(m.name, IntKeyMap(f.*BoundMember(m.name)));
  data_file.emplace_back("key_metadata",
                         f.key_metadata ? Value::Bytes(*f.key_metadata) : Value::Null());
  Value::Array offsets, ids;
  if (f.split_offsets) {
    for (int64_t o : *f.split_offsets) offsets.push_back(Value::Long(o));
  }
  if (f.equality_ids) {
    for (int32_t id : *f.equality_ids) ids.push_back(Value::Int(id));
  }
  data_file.emplace_back("split_offsets",
                         f.split_offsets ? Value::ArrayOf(std::move(offsets)) : Value::Null());
  data_file.emplace_back("equality_ids",
                         f.equality_ids ? Value::ArrayOf(std::move(ids)) : Value::Null());
  data_file.emplace_back("sort_order_id",
                         f.sort_order_id ? Value::Int(*f.sort_order_id) : Value::Null());
  return Value::Record({
      {"status", Value::Int(static_cast<int32_t>(entry.status))},
      {"snapshot_id", OptionalLong(entry.snapshot_id)},
      {"sequence_number", OptionalLong(entry.sequence_number)},
      {"file_sequence_number", OptionalLong(entry.file_sequence_number)},
      {"data_file", Value::Record(std::move(data_file))},
  });
}

bool IsNaN(const Literal& literal) {
  if (const auto* f = std::get_if<float>(&literal.value())) return std::isnan(*f);
  if (const auto* d = std::get_if<double>(&literal.value())) return std::isnan(*d);
  return false;
}

template <typename T>
Result<std::map<int32_t, T>> ReadIntKeyMap(const RecordView& r, std::string_view name) {
  std::map<int32_t, T> out;
  const Value* v = r.Get(name);
  if (v == nullptr) return out;
  if (v->type() != avro::AvroType::kArray)
    return r.Invalid(name, "is not an array of key/value records");
  for (const Value& item : v->items()) {
    if (item.type() != avro::AvroType::kRecord) return r.Invalid(name, "has a non-record entry");
    RecordView kv(item, "");
    DATABOX_ASSIGN_OR_RETURN(int32_t key, kv.Int("key"));
    if constexpr (std::is_same_v<T, int64_t>) {
      auto value = kv.Long("value");
      if (!value) return r.Invalid(name, "entry " + std::to_string(key) + " has no long value");
      out[key] = *value;
    } else {
      auto value = kv.OptionalBytes("value");
      if (!value || !*value)
        return r.Invalid(name, "entry " + std::to_string(key) + " has no bytes value");
      out[key] = **value;
    }
  }
  return out;
}

template <typename T>
Result<std::optional<std::vector<T>>> ReadList(const RecordView& r, std::string_view name) {
  const Value* v = r.Get(name);
  if (v == nullptr) return std::optional<std::vector<T>>();
  if (v->type() != avro::AvroType::kArray) return r.Invalid(name, "is not an array");
  std::vector<T> out;
  for (const Value& item : v->items()) {
    const Value& u = item.Unwrapped();
    if constexpr (std::is_same_v<T, int64_t>) {
      if (u.type() != avro::AvroType::kLong) return r.Invalid(name, "has a non-long element");
      out.push_back(u.long_value());
    } else {
      if (u.type() != avro::AvroType::kInt) return r.Invalid(name, "has a non-int element");
      out.push_back(u.int_value());
    }
  }
  return std::optional<std::vector<T>>(std::move(out));
}

Result<DataFile> DataFileFromAvro(const Value& record, const Type& partition_type,
                                  const std::string& name) {
  RecordView r(record, name);
  DataFile f;
  DATABOX_ASSIGN_OR_RETURN(std::optional<int32_t> content, r.OptionalInt("content"));
  if (content.value_or(0) < 0 || content.value_or(0) > 2)
    return r.Invalid("content", "is not 0, 1 or 2");
  f.content = static_cast<DataFileContent>(content.value_or(0));
  DATABOX_ASSIGN_OR_RETURN(f.file_path, r.String("file_path"));
  DATABOX_ASSIGN_OR_RETURN(f.file_format, r.String("file_format"));
  DATABOX_ASSIGN_OR_RETURN(const Value* partition, r.Require("partition", avro::AvroType::kRecord));
  for (const NestedField& field : partition_type.fields()) {
    const Value* v = partition->Field(field.name);
    if (v == nullptr || v->Unwrapped().is_null()) {
      f.partition.emplace_back(std::nullopt);
      continue;
    }
    auto literal = manifest_internal::LiteralFromAvro(*v, field.type);
    if (!literal) return std::unexpected(literal.error().WithContext(name));
    f.partition.emplace_back(std::move(*literal));
  }
  DATABOX_ASSIGN_OR_RETURN(f.record_count, r.Long("record_count"));
  DATABOX_ASSIGN_OR_RETURN(f.file_size_in_bytes, r.Long("file_size_in_bytes"));
  for (const MapField& m : kCountMaps) {
    DATABOX_ASSIGN_OR_RETURN(f.*CountMember(m.name), ReadIntKeyMap<int64_t>(r, m.name));
  }
  for (const MapField& m : kBoundMaps) {
    DATABOX_ASSIGN_OR_RETURN(f.*BoundMember(m.name), ReadIntKeyMap<std::string>(r, m.name));
  }
  DATABOX_ASSIGN_OR_RETURN(f.key_metadata, r.OptionalBytes("key_metadata"));
  DATABOX_ASSIGN_OR_RETURN(f.split_offsets, ReadList<int64_t>(r, "split_offsets"));
  DATABOX_ASSIGN_OR_RETURN(f.equality_ids, ReadList<int32_t>(r, "equality_ids"));
  DATABOX_ASSIGN_OR_RETURN(f.sort_order_id, r.OptionalInt("sort_order_id"));
  return f;
}

//! Fills null snapshot ids and sequence numbers from the manifest-list entry.
Status Inherit(ManifestEntry& entry, const ManifestFile& list_entry, const std::string& name) {
  if (!entry.snapshot_id) entry.snapshot_id = list_entry.added_snapshot_id;
  const int64_t manifest_seq = list_entry.sequence_number.value_or(0);
  // v1 manifests carry no sequence numbers at all: everything inherits 0 then.
  const bool may_inherit = entry.status == ManifestEntryStatus::kAdded || manifest_seq == 0;
  if (!entry.sequence_number || !entry.file_sequence_number) {
    if (!may_inherit) {
      return MakeError(
          ErrorKind::kData,
          name + ": " + (entry.status == ManifestEntryStatus::kExisting ? "EXISTING" : "DELETED") +
              " entry for " + entry.data_file.file_path +
              " has no sequence number; the manifest is invalid");
    }
    if (!entry.sequence_number) entry.sequence_number = manifest_seq;
    if (!entry.file_sequence_number) entry.file_sequence_number = manifest_seq;
  }
  return Ok();
}

Result<int32_t> ParseIntMetadata(const avro::ContainerReader& reader, std::string_view key,
                                 int32_t fallback, const std::string& name) {
  auto text = reader.Metadata(key);
  if (!text) return fallback;
  try {
    return std::stoi(std::string(*text));
  } catch (const std::exception&) {
    return MakeError(ErrorKind::kData,
                     name + ": header " + std::string(key) + " is not an integer");
  }
}

}  // namespace

Result<std::string> ManifestAvroSchema(const Type& partition_type) {
  Json partition_fields = Json::array();
  for (const NestedField& field : partition_type.fields()) {
    DATABOX_ASSIGN_OR_RETURN(Json type, manifest_internal::AvroPrimitive(field.type));
    partition_fields.push_back(AvroField(field.name, field.id, std::move(type), true));
  }
  Json data_file_fields = Json::array({
      AvroField("content", 134, "int", false),
      AvroField("file_path", 100, "string", false),
      AvroField("file_format", 101, "string", false),
      AvroField("partition", 102,
                Json{{"type", "record"}, {"name", "r102"}, {"fields", partition_fields}}, false),
      AvroField("record_count", 103, "long", false),
      AvroField("file_size_in_bytes", 104, "long", false),
  });
  for (const MapField& m : kCountMaps) {
    data_file_fields.push_back(
        AvroField(m.name, m.id, AvroIntKeyMap(m.key_id, m.value_id, "long"), true));
  }
  for (const MapField& m : kBoundMaps) {
    data_file_fields.push_back(
        AvroField(m.name, m.id, AvroIntKeyMap(m.key_id, m.value_id, "bytes"), true));
  }
  data_file_fields.push_back(AvroField("key_metadata", 131, "bytes", true));
  data_file_fields.push_back(AvroField("split_offsets", 132, AvroList(133, "long"), true));
  data_file_fields.push_back(AvroField("equality_ids", 135, AvroList(136, "int"), true));
  data_file_fields.push_back(AvroField("sort_order_id", 140, "int", true));
  Json schema{
      {"type", "record"},
      {"name", "manifest_entry"},
      {"fields",
       Json::array({
           AvroField("status", 0, "int", false),
           AvroField("snapshot_id", 1, "long", true),
           AvroField("sequence_number", 3, "long", true),
           AvroField("file_sequence_number", 4, "long", true),
           AvroField("data_file", 2,
                     Json{{"type", "record"}, {"name", "r2"}, {"fields", data_file_fields}}, false),
       })}};
  return schema.dump();
}

Result<ManifestWriter> ManifestWriter::Make(const Schema& table_schema, const PartitionSpec& spec,
                                            ManifestContent content, int64_t snapshot_id,
                                            avro::Sink sink, avro::Codec codec) {
  DATABOX_ASSIGN_OR_RETURN(Type partition_type, spec.PartitionType(table_schema));
  DATABOX_ASSIGN_OR_RETURN(std::string schema_json, ManifestAvroSchema(partition_type));
  DATABOX_ASSIGN_OR_RETURN(avro::Schema avro_schema, avro::Schema::Parse(schema_json));
  avro::WriterOptions options;
  options.codec = codec;
  options.metadata = {
      {"schema", table_schema.ToJson().dump()},
      {"schema-id", std::to_string(table_schema.schema_id())},
      {"partition-spec", spec.ToJson().at("fields").dump()},
      {"partition-spec-id", std::to_string(spec.spec_id)},
      {"format-version", "2"},
      {"content", content == ManifestContent::kData ? "data" : "deletes"},
  };
  DATABOX_ASSIGN_OR_RETURN(
      avro::ContainerWriter writer,
      avro::ContainerWriter::Make(std::move(avro_schema), std::move(options), std::move(sink)));
  ManifestFile summary;
  summary.partition_spec_id = spec.spec_id;
  summary.content = content;
  summary.added_snapshot_id = snapshot_id;
  summary.partitions.resize(partition_type.fields().size());
  for (PartitionFieldSummary& s : summary.partitions) s.contains_nan = false;
  ManifestWriter out(std::move(writer), std::move(partition_type), std::move(summary));
  out.lower_.resize(out.summary_.partitions.size());
  out.upper_.resize(out.summary_.partitions.size());
  return out;
}

Status ManifestWriter::Add(const ManifestEntry& entry) {
  DATABOX_ASSIGN_OR_RETURN(Value record, EntryToAvro(entry, partition_type_));
  DATABOX_RETURN_IF_ERROR(writer_.Append(record));
  const int64_t rows = entry.data_file.record_count;
  switch (entry.status) {
    case ManifestEntryStatus::kAdded:
      ++summary_.added_files_count;
      summary_.added_rows_count += rows;
      break;
    case ManifestEntryStatus::kExisting:
      ++summary_.existing_files_count;
      summary_.existing_rows_count += rows;
      break;
    case ManifestEntryStatus::kDeleted:
      ++summary_.deleted_files_count;
      summary_.deleted_rows_count += rows;
      break;
  }
  if (entry.sequence_number &&
      (!summary_.min_sequence_number || *entry.sequence_number < *summary_.min_sequence_number)) {
    summary_.min_sequence_number = entry.sequence_number;
  }
  for (size_t i = 0; i < entry.data_file.partition.size(); ++i) {
    const std::optional<Literal>& value = entry.data_file.partition[i];
    PartitionFieldSummary& s = summary_.partitions[i];
    if (!value) {
      s.contains_null = true;
      continue;
    }
    if (IsNaN(*value)) {
      s.contains_nan = true;
      continue;
    }
    if (!lower_[i] || Literal::Compare(*value, *lower_[i]).value_or(0) < 0) lower_[i] = value;
    if (!upper_[i] || Literal::Compare(*value, *upper_[i]).value_or(0) > 0) upper_[i] = value;
  }
  return Ok();
}

Result<ManifestFile> ManifestWriter::Finish(std::string manifest_path) {
  DATABOX_RETURN_IF_ERROR(writer_.Close());
  ManifestFile out = summary_;
  out.manifest_path = std::move(manifest_path);
  out.manifest_length = writer_.bytes_written();
  for (size_t i = 0; i < out.partitions.size(); ++i) {
    if (lower_[i]) {
      Bytes bytes = lower_[i]->ToBytes();
      out.partitions[i].lower_bound = std::string(bytes.begin(), bytes.end());
    }
    if (upper_[i]) {
      Bytes bytes = upper_[i]->ToBytes();
      out.partitions[i].upper_bound = std::string(bytes.begin(), bytes.end());
    }
  }
  return out;
}

Result<Manifest> ReadManifest(std::string data, const ManifestFile& list_entry) {
  const std::string& name = list_entry.manifest_path;
  DATABOX_ASSIGN_OR_RETURN(avro::ContainerReader reader,
                           avro::ContainerReader::Open(std::move(data), name));
  Manifest manifest;
  manifest.schema_json = std::string(reader.Metadata("schema").value_or(""));
  manifest.partition_spec_json = std::string(reader.Metadata("partition-spec").value_or("[]"));
  DATABOX_ASSIGN_OR_RETURN(
      manifest.partition_spec_id,
      ParseIntMetadata(reader, "partition-spec-id", list_entry.partition_spec_id, name));
  DATABOX_ASSIGN_OR_RETURN(manifest.format_version,
                           ParseIntMetadata(reader, "format-version", 1, name));
  manifest.content =
      reader.Metadata("content") == "deletes" ? ManifestContent::kDeletes : ManifestContent::kData;

  const auto schema_json = nlohmann::json::parse(manifest.schema_json, nullptr, false);
  const auto spec_fields = nlohmann::json::parse(manifest.partition_spec_json, nullptr, false);
  if (schema_json.is_discarded() || !spec_fields.is_array()) {
    return MakeError(ErrorKind::kData,
                     name + ": manifest header lacks a valid \"schema\" or \"partition-spec\"");
  }
  auto table_schema = Schema::FromJson(schema_json);
  if (!table_schema) return std::unexpected(table_schema.error().WithContext(name));
  auto spec = PartitionSpec::FromJson(
      nlohmann::json{{"spec-id", manifest.partition_spec_id}, {"fields", spec_fields}});
  if (!spec) return std::unexpected(spec.error().WithContext(name));
  auto partition_type = spec->PartitionType(*table_schema);
  if (!partition_type) return std::unexpected(partition_type.error().WithContext(name));

  while (true) {
    DATABOX_ASSIGN_OR_RETURN(std::optional<Value> record, reader.Next());
    if (!record) break;
    RecordView r(*record, name);
    ManifestEntry entry;
    DATABOX_ASSIGN_OR_RETURN(int32_t status, r.Int("status"));
    if (status < 0 || status > 2) return r.Invalid("status", "is not 0, 1 or 2");
    entry.status = static_cast<ManifestEntryStatus>(status);
    DATABOX_ASSIGN_OR_RETURN(entry.snapshot_id, r.OptionalLong("snapshot_id"));
    DATABOX_ASSIGN_OR_RETURN(entry.sequence_number, r.OptionalLong("sequence_number"));
    DATABOX_ASSIGN_OR_RETURN(entry.file_sequence_number, r.OptionalLong("file_sequence_number"));
    DATABOX_ASSIGN_OR_RETURN(const Value* data_file,
                             r.Require("data_file", avro::AvroType::kRecord));
    DATABOX_ASSIGN_OR_RETURN(entry.data_file, DataFileFromAvro(*data_file, *partition_type, name));
    DATABOX_RETURN_IF_ERROR(Inherit(entry, list_entry, name));
    manifest.entries.push_back(std::move(entry));
  }
  return manifest;
}

}  // namespace databox::iceberg
