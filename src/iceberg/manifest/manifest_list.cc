#include "iceberg/manifest/manifest_list.h"

#include "iceberg/avro/container_reader.h"
#include "iceberg/avro/container_writer.h"
#include "iceberg/manifest/manifest_internal.h"

namespace databox::iceberg {
namespace {

using avro::Value;
using manifest_internal::AvroField;
using manifest_internal::Json;
using manifest_internal::RecordView;

std::string BuildSchema() {
  Json summary{{"type", "record"},
               {"name", "r508"},
               {"fields", Json::array({
                              AvroField("contains_null", 509, "boolean", false),
                              AvroField("contains_nan", 518, "boolean", true),
                              AvroField("lower_bound", 510, "bytes", true),
                              AvroField("upper_bound", 511, "bytes", true),
                          })}};
  Json schema{
      {"type", "record"},
      {"name", "manifest_file"},
      {"fields", Json::array({
                     AvroField("manifest_path", 500, "string", false),
                     AvroField("manifest_length", 501, "long", false),
                     AvroField("partition_spec_id", 502, "int", false),
                     AvroField("content", 517, "int", false),
                     AvroField("sequence_number", 515, "long", false),
                     AvroField("min_sequence_number", 516, "long", false),
                     AvroField("added_snapshot_id", 503, "long", false),
                     AvroField("added_files_count", 504, "int", false),
                     AvroField("existing_files_count", 505, "int", false),
                     AvroField("deleted_files_count", 506, "int", false),
                     AvroField("added_rows_count", 512, "long", false),
                     AvroField("existing_rows_count", 513, "long", false),
                     AvroField("deleted_rows_count", 514, "long", false),
                     AvroField("partitions", 507, manifest_internal::AvroList(508, summary), true),
                     AvroField("key_metadata", 519, "bytes", true),
                 })}};
  return schema.dump();
}

Value OptionalBytes(const std::optional<std::string>& bytes) {
  return bytes ? Value::Bytes(*bytes) : Value::Null();
}

Value ToAvro(const ManifestFile& m, int64_t snapshot_sequence_number) {
  Value::Array summaries;
  for (const PartitionFieldSummary& s : m.partitions) {
    summaries.push_back(Value::Record({
        {"contains_null", Value::Boolean(s.contains_null)},
        {"contains_nan", s.contains_nan ? Value::Boolean(*s.contains_nan) : Value::Null()},
        {"lower_bound", OptionalBytes(s.lower_bound)},
        {"upper_bound", OptionalBytes(s.upper_bound)},
    }));
  }
  return Value::Record({
      {"manifest_path", Value::String(m.manifest_path)},
      {"manifest_length", Value::Long(m.manifest_length)},
      {"partition_spec_id", Value::Int(m.partition_spec_id)},
      {"content", Value::Int(static_cast<int32_t>(m.content))},
      {"sequence_number", Value::Long(m.sequence_number.value_or(snapshot_sequence_number))},
      {"min_sequence_number",
       Value::Long(m.min_sequence_number.value_or(snapshot_sequence_number))},
      {"added_snapshot_id", Value::Long(m.added_snapshot_id)},
      {"added_files_count", Value::Int(m.added_files_count)},
      {"existing_files_count", Value::Int(m.existing_files_count)},
      {"deleted_files_count", Value::Int(m.deleted_files_count)},
      {"added_rows_count", Value::Long(m.added_rows_count)},
      {"existing_rows_count", Value::Long(m.existing_rows_count)},
      {"deleted_rows_count", Value::Long(m.deleted_rows_count)},
      {"partitions", Value::ArrayOf(std::move(summaries))},
      {"key_metadata", OptionalBytes(m.key_metadata)},
  });
}

//! v1 lists name the counts *_data_files_count; v2 *_files_count.
Result<int32_t> CountField(const RecordView& r, std::string_view v2_name,
                           std::string_view v1_name) {
  if (r.Get(v2_name) != nullptr) return r.Int(v2_name);
  DATABOX_ASSIGN_OR_RETURN(std::optional<int32_t> v1, r.OptionalInt(v1_name));
  return v1.value_or(0);
}

Result<ManifestFile> FromAvro(const Value& record, const std::string& name) {
  RecordView r(record, name);
  ManifestFile m;
  DATABOX_ASSIGN_OR_RETURN(m.manifest_path, r.String("manifest_path"));
  DATABOX_ASSIGN_OR_RETURN(m.manifest_length, r.Long("manifest_length"));
  DATABOX_ASSIGN_OR_RETURN(m.partition_spec_id, r.Int("partition_spec_id"));
  DATABOX_ASSIGN_OR_RETURN(std::optional<int32_t> content, r.OptionalInt("content"));
  if (content.value_or(0) < 0 || content.value_or(0) > 1)
    return r.Invalid("content", "is not 0 or 1");
  m.content = static_cast<ManifestContent>(content.value_or(0));
  DATABOX_ASSIGN_OR_RETURN(std::optional<int64_t> seq, r.OptionalLong("sequence_number"));
  DATABOX_ASSIGN_OR_RETURN(std::optional<int64_t> min_seq, r.OptionalLong("min_sequence_number"));
  m.sequence_number = seq.value_or(0);
  m.min_sequence_number = min_seq.value_or(0);
  DATABOX_ASSIGN_OR_RETURN(std::optional<int64_t> added_snapshot,
                           r.OptionalLong("added_snapshot_id"));
  m.added_snapshot_id = added_snapshot.value_or(0);
  DATABOX_ASSIGN_OR_RETURN(m.added_files_count,
                           CountField(r, "added_files_count", "added_data_files_count"));
  DATABOX_ASSIGN_OR_RETURN(m.existing_files_count,
                           CountField(r, "existing_files_count", "existing_data_files_count"));
  DATABOX_ASSIGN_OR_RETURN(m.deleted_files_count,
                           CountField(r, "deleted_files_count", "deleted_data_files_count"));
  DATABOX_ASSIGN_OR_RETURN(std::optional<int64_t> added_rows, r.OptionalLong("added_rows_count"));
  DATABOX_ASSIGN_OR_RETURN(std::optional<int64_t> existing_rows,
                           r.OptionalLong("existing_rows_count"));
  DATABOX_ASSIGN_OR_RETURN(std::optional<int64_t> deleted_rows,
                           r.OptionalLong("deleted_rows_count"));
  m.added_rows_count = added_rows.value_or(0);
  m.existing_rows_count = existing_rows.value_or(0);
  m.deleted_rows_count = deleted_rows.value_or(0);
  if (const Value* partitions = r.Get("partitions")) {
    if (partitions->type() != avro::AvroType::kArray)
      return r.Invalid("partitions", "is not an array");
    for (const Value& item : partitions->items()) {
      if (item.type() != avro::AvroType::kRecord)
        return r.Invalid("partitions", "has a non-record element");
      RecordView s(item, name);
      PartitionFieldSummary summary;
      DATABOX_ASSIGN_OR_RETURN(const Value* contains_null,
                               s.Require("contains_null", avro::AvroType::kBoolean));
      summary.contains_null = contains_null->boolean();
      DATABOX_ASSIGN_OR_RETURN(summary.contains_nan, s.OptionalBoolean("contains_nan"));
      DATABOX_ASSIGN_OR_RETURN(summary.lower_bound, s.OptionalBytes("lower_bound"));
      DATABOX_ASSIGN_OR_RETURN(summary.upper_bound, s.OptionalBytes("upper_bound"));
      m.partitions.push_back(std::move(summary));
    }
  }
  DATABOX_ASSIGN_OR_RETURN(m.key_metadata, r.OptionalBytes("key_metadata"));
  return m;
}

}  // namespace

const std::string& ManifestListAvroSchema() {
  static const std::string* const kSchema = new std::string(BuildSchema());
  return *kSchema;
}

Result<std::string> WriteManifestList(std::span<const ManifestFile> manifests,
                                      const ManifestListOptions& options) {
  DATABOX_ASSIGN_OR_RETURN(avro::Schema schema, avro::Schema::Parse(ManifestListAvroSchema()));
  avro::WriterOptions writer_options;
  writer_options.codec = options.codec;
  writer_options.metadata = {
      {"snapshot-id", std::to_string(options.snapshot_id)},
      {"parent-snapshot-id", options.parent_snapshot_id
                                 ? std::to_string(*options.parent_snapshot_id)
                                 : std::string("null")},
      {"sequence-number", std::to_string(options.sequence_number)},
      {"format-version", "2"},
  };
  std::string out;
  DATABOX_ASSIGN_OR_RETURN(
      avro::ContainerWriter writer,
      avro::ContainerWriter::Make(std::move(schema), std::move(writer_options), &out));
  for (const ManifestFile& manifest : manifests) {
    DATABOX_RETURN_IF_ERROR(writer.Append(ToAvro(manifest, options.sequence_number)));
  }
  DATABOX_RETURN_IF_ERROR(writer.Close());
  return out;
}

Result<std::vector<ManifestFile>> ReadManifestList(std::string data, const std::string& name) {
  DATABOX_ASSIGN_OR_RETURN(avro::ContainerReader reader,
                           avro::ContainerReader::Open(std::move(data), name));
  if (reader.schema().root_node().type != avro::AvroType::kRecord) {
    return MakeError(ErrorKind::kData, name + ": manifest list schema is not a record");
  }
  std::vector<ManifestFile> out;
  while (true) {
    DATABOX_ASSIGN_OR_RETURN(std::optional<Value> record, reader.Next());
    if (!record) return out;
    DATABOX_ASSIGN_OR_RETURN(ManifestFile manifest, FromAvro(*record, name));
    out.push_back(std::move(manifest));
  }
}

}  // namespace databox::iceberg
