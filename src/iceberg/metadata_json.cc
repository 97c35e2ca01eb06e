#include "iceberg/metadata_json.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>

#include "iceberg/json_internal.h"

namespace databox::iceberg {

namespace {

constexpr const char* kWhat = "table metadata";

template <typename T>
nlohmann::json ArrayToJson(const std::vector<T>& items) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& item : items) out.push_back(item.ToJson());
  return out;
}

//! Reads an optional array member with T::FromJson for each element.
template <typename T>
Result<std::vector<T>> ArrayFromJson(const nlohmann::json& json, std::string_view key) {
  std::vector<T> out;
  auto it = json.find(key);
  if (it == json.end() || it->is_null()) return out;
  if (!it->is_array())
    return internal::JsonError(kWhat, "\"" + std::string(key) + "\" must be an array");
  for (const auto& item : *it) {
    auto parsed = T::FromJson(item);
    if (!parsed) return std::unexpected(parsed.error().WithContext(std::string(key)));
    out.push_back(std::move(*parsed));
  }
  return out;
}

Result<std::map<std::string, std::string>> ReadProperties(const nlohmann::json& json) {
  std::map<std::string, std::string> out;
  auto it = json.find("properties");
  if (it == json.end() || it->is_null()) return out;
  if (!it->is_object()) return internal::JsonError(kWhat, "\"properties\" must be an object");
  for (const auto& [k, v] : it->items()) {
    if (!v.is_string())
      return internal::JsonError(kWhat, "property \"" + k + "\" must be a string");
    out[k] = v.get<std::string>();
  }
  return out;
}

//! Schemas: v2 "schemas" + "current-schema-id"; v1 may only have "schema".
Status ReadSchemas(const nlohmann::json& json, TableMetadata& md) {
  DATABOX_ASSIGN_OR_RETURN(md.schemas, ArrayFromJson<Schema>(json, "schemas"));
  DATABOX_ASSIGN_OR_RETURN(std::optional<int32_t> current,
                           internal::GetOptionalInt32(json, "current-schema-id", kWhat));
  if (md.schemas.empty()) {
    DATABOX_ASSIGN_OR_RETURN(const nlohmann::json* schema, internal::Member(json, "schema", kWhat));
    DATABOX_ASSIGN_OR_RETURN(Schema parsed, Schema::FromJson(*schema));
    md.schemas.push_back(std::move(parsed));
    current = md.schemas.front().schema_id();
  }
  if (!current) return internal::JsonError(kWhat, "missing required field \"current-schema-id\"");
  md.current_schema_id = *current;
  return Ok();
}

//! Specs: v2 "partition-specs" + "default-spec-id"; v1 may only have "partition-spec" (fields).
Status ReadSpecs(const nlohmann::json& json, TableMetadata& md) {
  DATABOX_ASSIGN_OR_RETURN(md.partition_specs,
                           ArrayFromJson<PartitionSpec>(json, "partition-specs"));
  DATABOX_ASSIGN_OR_RETURN(std::optional<int32_t> default_id,
                           internal::GetOptionalInt32(json, "default-spec-id", kWhat));
  if (md.partition_specs.empty()) {
    DATABOX_ASSIGN_OR_RETURN(const nlohmann::json* fields,
                             internal::Member(json, "partition-spec", kWhat));
    DATABOX_ASSIGN_OR_RETURN(PartitionSpec spec, PartitionSpec::FromJson(nlohmann::json{
                                                     {"spec-id", 0}, {"fields", *fields}}));
    md.partition_specs.push_back(std::move(spec));
    default_id = 0;
  }
  // v1 partition fields may lack field ids: the spec assigns 1000, 1001, ... in order.
  for (auto& spec : md.partition_specs) {
    int32_t next = kPartitionDataIdStart;
    for (auto& f : spec.fields) {
      if (f.field_id < 0) f.field_id = next;
      next = f.field_id + 1;
    }
  }
  if (!default_id) return internal::JsonError(kWhat, "missing required field \"default-spec-id\"");
  md.default_spec_id = *default_id;
  return Ok();
}

Result<std::map<std::string, SnapshotRef>> ReadRefs(const nlohmann::json& json) {
  std::map<std::string, SnapshotRef> out;
  auto it = json.find("refs");
  if (it == json.end() || it->is_null()) return out;
  if (!it->is_object()) return internal::JsonError(kWhat, "\"refs\" must be an object");
  for (const auto& [name, ref] : it->items()) {
    auto parsed = SnapshotRef::FromJson(ref);
    if (!parsed) return std::unexpected(parsed.error().WithContext("ref \"" + name + "\""));
    out[name] = *parsed;
  }
  return out;
}

}  // namespace

nlohmann::json TableMetadataToJson(const TableMetadata& md) {
  nlohmann::json refs = nlohmann::json::object();
  for (const auto& [name, ref] : md.refs) refs[name] = ref.ToJson();
  nlohmann::json j = {
      {"format-version", kDefaultFormatVersion},
      {"table-uuid", md.table_uuid},
      {"location", md.location},
      {"last-sequence-number", md.last_sequence_number},
      {"last-updated-ms", md.last_updated_ms},
      {"last-column-id", md.last_column_id},
      {"current-schema-id", md.current_schema_id},
      {"schemas", ArrayToJson(md.schemas)},
      {"default-spec-id", md.default_spec_id},
      {"partition-specs", ArrayToJson(md.partition_specs)},
      {"last-partition-id", md.last_partition_id},
      {"default-sort-order-id", md.default_sort_order_id},
      {"sort-orders", ArrayToJson(md.sort_orders)},
      {"properties", md.properties},
      {"current-snapshot-id", nullptr},
      {"refs", std::move(refs)},
      {"snapshots", ArrayToJson(md.snapshots)},
      {"statistics", nlohmann::json::array()},
      {"partition-statistics", nlohmann::json::array()},
      {"snapshot-log", ArrayToJson(md.snapshot_log)},
      {"metadata-log", ArrayToJson(md.metadata_log)},
  };
  if (md.current_snapshot_id) j["current-snapshot-id"] = *md.current_snapshot_id;
  return j;
}

Result<TableMetadata> TableMetadataFromJson(const nlohmann::json& json) {
  DATABOX_RETURN_IF_ERROR(internal::ExpectObject(json, kWhat));
  TableMetadata md;
  DATABOX_ASSIGN_OR_RETURN(int32_t version, internal::GetInt32(json, "format-version", kWhat));
  if (version < 1 || version > kMaxSupportedFormatVersion) {
    return internal::JsonError(kWhat, "format-version " + std::to_string(version) +
                                          " is not supported (this build reads 1 and 2)");
  }
  const bool v1 = version == 1;
  md.format_version = kDefaultFormatVersion;
  DATABOX_ASSIGN_OR_RETURN(std::optional<std::string> uuid,
                           internal::GetOptionalString(json, "table-uuid", kWhat));
  if (!uuid && !v1) return internal::JsonError(kWhat, "missing required field \"table-uuid\"");
  md.table_uuid = uuid ? *uuid : NewUuid();  // v1 may omit it; upgrading assigns one
  DATABOX_ASSIGN_OR_RETURN(md.location, internal::GetString(json, "location", kWhat));
  DATABOX_ASSIGN_OR_RETURN(std::optional<int64_t> seq,
                           internal::GetOptionalInt64(json, "last-sequence-number", kWhat));
  if (!seq && !v1)
    return internal::JsonError(kWhat, "missing required field \"last-sequence-number\"");
  md.last_sequence_number = seq.value_or(0);
  DATABOX_ASSIGN_OR_RETURN(md.last_updated_ms, internal::GetInt64(json, "last-updated-ms", kWhat));
  DATABOX_ASSIGN_OR_RETURN(md.last_column_id, internal::GetInt32(json, "last-column-id", kWhat));
  DATABOX_RETURN_IF_ERROR(ReadSchemas(json, md));
  DATABOX_RETURN_IF_ERROR(ReadSpecs(json, md));
  DATABOX_ASSIGN_OR_RETURN(std::optional<int32_t> last_partition,
                           internal::GetOptionalInt32(json, "last-partition-id", kWhat));
  if (!last_partition && !v1)
    return internal::JsonError(kWhat, "missing required field \"last-partition-id\"");
  md.last_partition_id = kPartitionDataIdStart - 1;
  for (const auto& spec : md.partition_specs) {
    md.last_partition_id = std::max(md.last_partition_id, spec.LastAssignedFieldId());
  }
  if (last_partition) md.last_partition_id = std::max(md.last_partition_id, *last_partition);
  DATABOX_ASSIGN_OR_RETURN(md.properties, ReadProperties(json));
  DATABOX_ASSIGN_OR_RETURN(md.current_snapshot_id,
                           internal::GetOptionalInt64(json, "current-snapshot-id", kWhat));
  if (md.current_snapshot_id && *md.current_snapshot_id == -1) md.current_snapshot_id.reset();
  DATABOX_ASSIGN_OR_RETURN(md.snapshots, ArrayFromJson<Snapshot>(json, "snapshots"));
  DATABOX_ASSIGN_OR_RETURN(md.snapshot_log, ArrayFromJson<SnapshotLogEntry>(json, "snapshot-log"));
  DATABOX_ASSIGN_OR_RETURN(md.metadata_log, ArrayFromJson<MetadataLogEntry>(json, "metadata-log"));
  DATABOX_ASSIGN_OR_RETURN(md.sort_orders, ArrayFromJson<SortOrder>(json, "sort-orders"));
  DATABOX_ASSIGN_OR_RETURN(std::optional<int32_t> order_id,
                           internal::GetOptionalInt32(json, "default-sort-order-id", kWhat));
  if (md.sort_orders.empty()) md.sort_orders.push_back(SortOrder::Unsorted());
  md.default_sort_order_id = order_id.value_or(kUnsortedOrderId);
  DATABOX_ASSIGN_OR_RETURN(md.refs, ReadRefs(json));
  // Metadata without refs (v1, old writers) has an implicit main branch at the current snapshot.
  if (md.current_snapshot_id && !md.refs.contains(kMainBranch)) {
    md.refs[kMainBranch] = SnapshotRef::Branch(*md.current_snapshot_id);
  }
  if (auto main = md.refs.find(kMainBranch); main != md.refs.end()) {
    md.current_snapshot_id = main->second.snapshot_id;
  }
  for (const auto& s : md.snapshots) {
    md.last_sequence_number = std::max(md.last_sequence_number, s.sequence_number);
  }
  DATABOX_RETURN_IF_ERROR(md.Validate());
  return md;
}

std::string TableMetadataToJsonString(const TableMetadata& metadata) {
  return TableMetadataToJson(metadata).dump(2);
}

Result<TableMetadata> ParseTableMetadata(std::string_view text) {
  nlohmann::json json = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (json.is_discarded()) {
    return MakeError(ErrorKind::kData,
                     "table metadata is not valid JSON; the metadata file is corrupt or truncated");
  }
  return TableMetadataFromJson(json);
}

}  // namespace databox::iceberg
