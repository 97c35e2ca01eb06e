#include "iceberg/metadata/snapshot.h"

#include <nlohmann/json.hpp>
#include <string>

#include "common/enum_names.h"
#include "iceberg/spec/json_internal.h"

namespace databox::iceberg {

std::string Snapshot::operation() const {
  auto it = summary.find("operation");
  return it == summary.end() ? std::string() : it->second;
}

nlohmann::json Snapshot::ToJson() const {
  nlohmann::json j = {{"snapshot-id", snapshot_id},
                      {"sequence-number", sequence_number},
                      {"timestamp-ms", timestamp_ms},
                      {"manifest-list", manifest_list},
                      {"summary", summary}};
  if (parent_snapshot_id) j["parent-snapshot-id"] = *parent_snapshot_id;
  if (schema_id) j["schema-id"] = *schema_id;
  return j;
}

Result<Snapshot> Snapshot::FromJson(const nlohmann::json& json) {
  Snapshot s;
  DATABOX_ASSIGN_OR_RETURN(s.snapshot_id, internal::GetInt64(json, "snapshot-id", "snapshot"));
  const std::string what = "snapshot " + std::to_string(s.snapshot_id);
  DATABOX_ASSIGN_OR_RETURN(s.parent_snapshot_id,
                           internal::GetOptionalInt64(json, "parent-snapshot-id", what));
  // v1 snapshots have no sequence number: the spec reads it as 0.
  DATABOX_ASSIGN_OR_RETURN(std::optional<int64_t> seq,
                           internal::GetOptionalInt64(json, "sequence-number", what));
  s.sequence_number = seq.value_or(0);
  DATABOX_ASSIGN_OR_RETURN(s.timestamp_ms, internal::GetInt64(json, "timestamp-ms", what));
  DATABOX_ASSIGN_OR_RETURN(std::optional<std::string> list,
                           internal::GetOptionalString(json, "manifest-list", what));
  if (!list) {
    return internal::JsonError(
        what, "has no \"manifest-list\" (v1 inline \"manifests\" are not supported)");
  }
  s.manifest_list = std::move(*list);
  if (auto it = json.find("summary"); it != json.end() && !it->is_null()) {
    if (!it->is_object()) return internal::JsonError(what, "\"summary\" must be an object");
    for (const auto& [k, v] : it->items()) {
      if (!v.is_string())
        return internal::JsonError(what, "summary value \"" + k + "\" must be a string");
      s.summary[k] = v.get<std::string>();
    }
  }
  DATABOX_ASSIGN_OR_RETURN(s.schema_id, internal::GetOptionalInt32(json, "schema-id", what));
  return s;
}

namespace {

constexpr EnumNames<SnapshotRefType, 2> kSnapshotRefTypeNames{
    {{SnapshotRefType::kBranch, "branch"}, {SnapshotRefType::kTag, "tag"}}};
static_assert(DistinctNames(kSnapshotRefTypeNames));

}  // namespace

std::string_view SnapshotRefTypeName(SnapshotRefType type) {
  return NameOf(kSnapshotRefTypeNames, type, "branch");
}

Result<SnapshotRefType> ParseSnapshotRefType(std::string_view text) {
  if (auto type = ValueOf(kSnapshotRefTypeNames, text)) return *type;
  return internal::JsonError("snapshot ref", "\"type\" must be one of " +
                                                 JoinNames(kSnapshotRefTypeNames, "\"") +
                                                 ", not \"" + std::string(text) + "\"");
}

nlohmann::json SnapshotRef::ToJson() const {
  nlohmann::json j = {{"snapshot-id", snapshot_id}, {"type", SnapshotRefTypeName(type)}};
  if (min_snapshots_to_keep) j["min-snapshots-to-keep"] = *min_snapshots_to_keep;
  if (max_snapshot_age_ms) j["max-snapshot-age-ms"] = *max_snapshot_age_ms;
  if (max_ref_age_ms) j["max-ref-age-ms"] = *max_ref_age_ms;
  return j;
}

Result<SnapshotRef> SnapshotRef::FromJson(const nlohmann::json& json) {
  SnapshotRef r;
  DATABOX_ASSIGN_OR_RETURN(r.snapshot_id, internal::GetInt64(json, "snapshot-id", "snapshot ref"));
  DATABOX_ASSIGN_OR_RETURN(std::string type, internal::GetString(json, "type", "snapshot ref"));
  DATABOX_ASSIGN_OR_RETURN(r.type, ParseSnapshotRefType(type));
  DATABOX_ASSIGN_OR_RETURN(
      r.min_snapshots_to_keep,
      internal::GetOptionalInt32(json, "min-snapshots-to-keep", "snapshot ref"));
  DATABOX_ASSIGN_OR_RETURN(r.max_snapshot_age_ms,
                           internal::GetOptionalInt64(json, "max-snapshot-age-ms", "snapshot ref"));
  DATABOX_ASSIGN_OR_RETURN(r.max_ref_age_ms,
                           internal::GetOptionalInt64(json, "max-ref-age-ms", "snapshot ref"));
  return r;
}

nlohmann::json SnapshotLogEntry::ToJson() const {
  return {{"snapshot-id", snapshot_id}, {"timestamp-ms", timestamp_ms}};
}

Result<SnapshotLogEntry> SnapshotLogEntry::FromJson(const nlohmann::json& json) {
  SnapshotLogEntry e;
  DATABOX_ASSIGN_OR_RETURN(e.snapshot_id,
                           internal::GetInt64(json, "snapshot-id", "snapshot-log entry"));
  DATABOX_ASSIGN_OR_RETURN(e.timestamp_ms,
                           internal::GetInt64(json, "timestamp-ms", "snapshot-log entry"));
  return e;
}

nlohmann::json MetadataLogEntry::ToJson() const {
  return {{"metadata-file", metadata_file}, {"timestamp-ms", timestamp_ms}};
}

Result<MetadataLogEntry> MetadataLogEntry::FromJson(const nlohmann::json& json) {
  MetadataLogEntry e;
  DATABOX_ASSIGN_OR_RETURN(e.metadata_file,
                           internal::GetString(json, "metadata-file", "metadata-log entry"));
  DATABOX_ASSIGN_OR_RETURN(e.timestamp_ms,
                           internal::GetInt64(json, "timestamp-ms", "metadata-log entry"));
  return e;
}

}  // namespace databox::iceberg
