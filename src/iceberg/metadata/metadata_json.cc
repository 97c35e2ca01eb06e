#include "iceberg/metadata/metadata_json.h"

#include <algorithm>
#include <charconv>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "iceberg/spec/json_internal.h"

namespace databox::iceberg {

namespace {

constexpr const char* kWhat = "table metadata";

template <typename Items>
nlohmann::json ArrayToJson(const Items& items) {
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

//! Length of the well-formed UTF-8 sequence starting at text[i] (Unicode table 3-7), or 0.
size_t Utf8SequenceLength(std::string_view text, size_t i) {
  auto byte = [&](size_t k) -> unsigned { return static_cast<unsigned char>(text[k]); };
  auto in = [&](size_t k, unsigned lo, unsigned hi) {
    return k < text.size() && byte(k) >= lo && byte(k) <= hi;
  };
  const unsigned lead = byte(i);
  if (lead >= 0xC2 && lead <= 0xDF) return in(i + 1, 0x80, 0xBF) ? 2 : 0;
  if (lead >= 0xE0 && lead <= 0xEF) {
    const unsigned lo = lead == 0xE0 ? 0xA0 : 0x80;
    const unsigned hi = lead == 0xED ? 0x9F : 0xBF;
    return in(i + 1, lo, hi) && in(i + 2, 0x80, 0xBF) ? 3 : 0;
  }
  if (lead >= 0xF0 && lead <= 0xF4) {
    const unsigned lo = lead == 0xF0 ? 0x90 : 0x80;
    const unsigned hi = lead == 0xF4 ? 0x8F : 0xBF;
    return in(i + 1, lo, hi) && in(i + 2, 0x80, 0xBF) && in(i + 3, 0x80, 0xBF) ? 4 : 0;
  }
  return 0;
}

//! Appends `text` as a JSON string. Invalid UTF-8 bytes become U+FFFD, so the file stays
//! valid JSON whatever a property or summary value holds.
void AppendJsonString(std::string& out, std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += '"';
  size_t plain = 0;  // start of the pending run copied verbatim
  for (size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
      ++i;
      continue;
    }
    if (c >= 0x80) {
      if (const size_t len = Utf8SequenceLength(text, i); len > 0) {
        i += len;
        continue;
      }
    }
    out.append(text, plain, i - plain);
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (c < 0x20) {
          out += "\\u00";
          out += kHex[c >> 4];
          out += kHex[c & 0xF];
        } else {
          out += "\\ufffd";
        }
    }
    plain = ++i;
  }
  out.append(text, plain, text.size() - plain);
  out += '"';
}

//! Compact JSON written straight into a string: no document tree, one pass. Values after
//! Key() belong to that key; elsewhere they are array elements and get their commas here.
class JsonWriter {
 public:
  explicit JsonWriter(std::string& out) : out_(out) {}

  JsonWriter& BeginObject() { return Open('{'); }
  JsonWriter& EndObject() { return Close('}'); }
  JsonWriter& BeginArray() { return Open('['); }
  JsonWriter& EndArray() { return Close(']'); }
  JsonWriter& Key(std::string_view key) {
    Comma();
    AppendJsonString(out_, key);
    out_ += ':';
    after_key_ = true;
    return *this;
  }
  JsonWriter& Int(int64_t value) {
    BeforeValue();
    char buffer[24];
    auto [end, ec] = std::to_chars(buffer, buffer + sizeof(buffer), value);
    out_.append(buffer, end);
    return *this;
  }
  JsonWriter& String(std::string_view value) {
    BeforeValue();
    AppendJsonString(out_, value);
    return *this;
  }
  JsonWriter& Null() {
    BeforeValue();
    out_ += "null";
    return *this;
  }
  //! A value already serialized as JSON.
  JsonWriter& Raw(std::string_view json) {
    BeforeValue();
    out_ += json;
    return *this;
  }
  JsonWriter& StringMap(const std::map<std::string, std::string>& map) {
    BeginObject();
    for (const auto& [k, v] : map) Key(k).String(v);
    return EndObject();
  }

 private:
  JsonWriter& Open(char bracket) {
    BeforeValue();
    out_ += bracket;
    first_.push_back(true);
    return *this;
  }
  JsonWriter& Close(char bracket) {
    out_ += bracket;
    first_.pop_back();
    return *this;
  }
  void Comma() {
    if (first_.empty()) return;
    if (!first_.back()) out_ += ',';
    first_.back() = false;
  }
  void BeforeValue() {
    if (after_key_) {
      after_key_ = false;
    } else {
      Comma();
    }
  }

  std::string& out_;
  std::vector<bool> first_;  //!< per open object/array: nothing written in it yet
  bool after_key_ = false;   //!< the next value is a member's, not an array element
};

//! Small, rarely changing parts (schemas, specs, sort orders, refs) go through their ToJson.
template <typename Items>
void WriteArrayOfToJson(JsonWriter& w, const Items& items) {
  w.BeginArray();
  for (const auto& item : items) w.Raw(item.ToJson().dump());
  w.EndArray();
}

void WriteSnapshot(JsonWriter& w, const Snapshot& s) {
  w.BeginObject();
  w.Key("snapshot-id").Int(s.snapshot_id);
  if (s.parent_snapshot_id) w.Key("parent-snapshot-id").Int(*s.parent_snapshot_id);
  w.Key("sequence-number").Int(s.sequence_number);
  w.Key("timestamp-ms").Int(s.timestamp_ms);
  w.Key("manifest-list").String(s.manifest_list);
  w.Key("summary").StringMap(s.summary);
  if (s.schema_id) w.Key("schema-id").Int(*s.schema_id);
  w.EndObject();
}

//! The entries of the statistics array `key` (absent = none), each kept as written.
Result<std::vector<StatisticsEntry>> ReadStatistics(const nlohmann::json& json, const char* key) {
  std::vector<StatisticsEntry> out;
  auto it = json.find(key);
  if (it == json.end() || it->is_null()) return out;
  if (!it->is_array())
    return internal::JsonError(kWhat, std::string("\"") + key + "\" is not an array");
  for (const auto& entry : *it) {
    auto id = entry.is_object() ? entry.find("snapshot-id") : entry.end();
    if (!entry.is_object() || id == entry.end() || !id->is_number_integer()) {
      return internal::JsonError(
          kWhat, std::string("an entry of \"") + key + "\" has no integer \"snapshot-id\"");
    }
    out.push_back(
        {id->get<int64_t>(), entry.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)});
  }
  return out;
}

nlohmann::json StatisticsToJson(const std::vector<StatisticsEntry>& entries) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& e : entries) out.push_back(nlohmann::json::parse(e.json));
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
      {"statistics", StatisticsToJson(md.statistics)},
      {"partition-statistics", StatisticsToJson(md.partition_statistics)},
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
  DATABOX_ASSIGN_OR_RETURN(std::vector<Snapshot> snapshots,
                           ArrayFromJson<Snapshot>(json, "snapshots"));
  md.snapshots.reserve(snapshots.size());
  for (auto& s : snapshots) md.snapshots.push_back(std::move(s));
  DATABOX_ASSIGN_OR_RETURN(md.snapshot_log, ArrayFromJson<SnapshotLogEntry>(json, "snapshot-log"));
  DATABOX_ASSIGN_OR_RETURN(md.metadata_log, ArrayFromJson<MetadataLogEntry>(json, "metadata-log"));
  DATABOX_ASSIGN_OR_RETURN(md.sort_orders, ArrayFromJson<SortOrder>(json, "sort-orders"));
  DATABOX_ASSIGN_OR_RETURN(std::optional<int32_t> order_id,
                           internal::GetOptionalInt32(json, "default-sort-order-id", kWhat));
  if (md.sort_orders.empty()) md.sort_orders.push_back(SortOrder::Unsorted());
  md.default_sort_order_id = order_id.value_or(kUnsortedOrderId);
  DATABOX_ASSIGN_OR_RETURN(md.refs, ReadRefs(json));
  DATABOX_ASSIGN_OR_RETURN(md.statistics, ReadStatistics(json, "statistics"));
  DATABOX_ASSIGN_OR_RETURN(md.partition_statistics, ReadStatistics(json, "partition-statistics"));
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

std::string TableMetadataToJsonString(const TableMetadata& md) {
  std::string out;
  // About 600 bytes per snapshot with our summaries; one allocation in the common case.
  out.reserve(4096 + md.snapshots.size() * 640 + md.metadata_log.size() * 160);
  JsonWriter w(out);
  w.BeginObject();
  w.Key("format-version").Int(kDefaultFormatVersion);
  w.Key("table-uuid").String(md.table_uuid);
  w.Key("location").String(md.location);
  w.Key("last-sequence-number").Int(md.last_sequence_number);
  w.Key("last-updated-ms").Int(md.last_updated_ms);
  w.Key("last-column-id").Int(md.last_column_id);
  w.Key("current-schema-id").Int(md.current_schema_id);
  w.Key("schemas");
  WriteArrayOfToJson(w, md.schemas);
  w.Key("default-spec-id").Int(md.default_spec_id);
  w.Key("partition-specs");
  WriteArrayOfToJson(w, md.partition_specs);
  w.Key("last-partition-id").Int(md.last_partition_id);
  w.Key("default-sort-order-id").Int(md.default_sort_order_id);
  w.Key("sort-orders");
  WriteArrayOfToJson(w, md.sort_orders);
  w.Key("properties").StringMap(md.properties);
  w.Key("current-snapshot-id");
  if (md.current_snapshot_id) {
    w.Int(*md.current_snapshot_id);
  } else {
    w.Null();
  }
  w.Key("refs").BeginObject();
  for (const auto& [name, ref] : md.refs) w.Key(name).Raw(ref.ToJson().dump());
  w.EndObject();
  w.Key("snapshots").BeginArray();
  // Snapshots never change: each is rendered once and reused by later commits (SnapshotList).
  for (size_t i = 0; i < md.snapshots.size(); ++i) {
    w.Raw(md.snapshots.CachedJson(i, [](const Snapshot& s) {
      std::string text;
      JsonWriter one(text);
      WriteSnapshot(one, s);
      return text;
    }));
  }
  w.EndArray();
  w.Key("statistics").BeginArray();
  for (const auto& e : md.statistics) w.Raw(e.json);
  w.EndArray();
  w.Key("partition-statistics").BeginArray();
  for (const auto& e : md.partition_statistics) w.Raw(e.json);
  w.EndArray();
  w.Key("snapshot-log").BeginArray();
  for (const auto& e : md.snapshot_log) {
    w.BeginObject().Key("snapshot-id").Int(e.snapshot_id);
    w.Key("timestamp-ms").Int(e.timestamp_ms).EndObject();
  }
  w.EndArray();
  w.Key("metadata-log").BeginArray();
  for (const auto& e : md.metadata_log) {
    w.BeginObject().Key("metadata-file").String(e.metadata_file);
    w.Key("timestamp-ms").Int(e.timestamp_ms).EndObject();
  }
  w.EndArray();
  w.EndObject();
  return out;
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
