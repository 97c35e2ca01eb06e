#include "cli/table_summary.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <ctime>

#include "cli/table_format.h"
#include "common/clock.h"
#include "common/json_integer.h"

namespace databox::cli {
namespace {

using Json = nlohmann::ordered_json;

constexpr const char* kLoadIdKey = "databox.load-id";

std::optional<int64_t> Counter(const iceberg::Snapshot& snapshot, const char* key) {
  auto it = snapshot.summary.find(key);
  if (it == snapshot.summary.end()) return std::nullopt;
  int64_t value = 0;
  const std::string& text = it->second;
  const auto [rest, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || rest != text.data() + text.size()) return std::nullopt;
  return value;
}

std::string Count(const std::optional<int64_t>& value) {
  return value ? std::to_string(*value) : "-";
}

Json CountJson(const std::optional<int64_t>& value) {
  return value ? JsonInteger<Json>(*value) : Json();
}

Json SummaryJson(const TableSummary& t) {
  return Json{{"table", t.table},
              {"snapshot_id", CountJson(t.snapshot_id)},
              {"snapshot_time", t.snapshot_time},
              {"operation", t.operation},
              {"records", CountJson(t.records)},
              {"position_deletes", CountJson(t.position_deletes)},
              {"data_files", CountJson(t.data_files)},
              {"delete_files", CountJson(t.delete_files)},
              {"bytes", CountJson(t.bytes)},
              {"load_id", t.load_id},
              {"snapshots", t.snapshots}};
}

std::string SpecText(const iceberg::TableMetadata& metadata) {
  const iceberg::PartitionSpec* spec = metadata.DefaultSpec();
  if (spec == nullptr || spec->is_unpartitioned()) return "unpartitioned";
  std::string text;
  for (const auto& field : spec->fields) {
    text += (text.empty() ? "" : ", ") + field.name + " = " + field.transform.ToString() +
            "(field " + std::to_string(field.source_id) + ")";
  }
  return text;
}

}  // namespace

std::string MillisToIso(int64_t millis) { return MillisIso(millis); }

TableSummary SummarizeTable(const iceberg::TableIdentifier& table,
                            const iceberg::TableMetadata& metadata) {
  TableSummary t;
  t.table = table.ToString();
  t.snapshots = static_cast<int64_t>(metadata.snapshots.size());
  for (const auto& snapshot : metadata.snapshots) {
    auto it = snapshot.summary.find(kLoadIdKey);
    if (it != snapshot.summary.end()) t.load_id = it->second;
  }
  const iceberg::Snapshot* current = metadata.CurrentSnapshot();
  if (current == nullptr) return t;
  t.snapshot_id = current->snapshot_id;
  t.snapshot_time = MillisToIso(current->timestamp_ms);
  t.operation = current->operation();
  t.records = Counter(*current, "total-records");
  t.position_deletes = Counter(*current, "total-position-deletes");
  t.data_files = Counter(*current, "total-data-files");
  t.delete_files = Counter(*current, "total-delete-files");
  t.bytes = Counter(*current, "total-files-size");
  return t;
}

std::string FormatTableList(const std::vector<TableSummary>& tables) {
  if (tables.empty()) return "no tables in the catalog yet\n";
  std::vector<std::vector<std::string>> rows = {
      {"TABLE", "ROWS", "FILES", "BYTES", "SNAPSHOT", "SNAPSHOT TIME", "LAST LOAD"}};
  for (const auto& t : tables) {
    rows.push_back({t.table, Count(t.records), Count(t.data_files), Count(t.bytes),
                    Count(t.snapshot_id), t.snapshot_time.empty() ? "-" : t.snapshot_time,
                    t.load_id.empty() ? "-" : t.load_id});
  }
  return AlignRows(rows);
}

Json TableListJson(const std::vector<TableSummary>& tables) {
  Json out = Json::array();
  for (const auto& t : tables) out.push_back(SummaryJson(t));
  return out;
}

std::string FormatSchemaFields(const iceberg::Schema* schema) {
  std::vector<std::vector<std::string>> fields = {{"  ID", "NAME", "TYPE", ""}};
  if (schema != nullptr) {
    const auto& ids = schema->identifier_field_ids();
    for (const auto& field : schema->fields()) {
      const bool key = std::find(ids.begin(), ids.end(), field.id) != ids.end();
      fields.push_back(
          {"  " + std::to_string(field.id), field.name, field.type.ToString(),
           std::string(field.required ? "required" : "optional") + (key ? ", key" : "")});
    }
  }
  return AlignRows(fields);
}

Json SchemaFieldsJson(const iceberg::Schema* schema) {
  Json fields = Json::array();
  if (schema == nullptr) return fields;
  const auto& ids = schema->identifier_field_ids();
  for (const auto& field : schema->fields()) {
    fields.push_back({{"id", field.id},
                      {"name", field.name},
                      {"type", field.type.ToString()},
                      {"required", field.required},
                      {"identifier", std::find(ids.begin(), ids.end(), field.id) != ids.end()}});
  }
  return fields;
}

std::string FormatTableDescription(const TableSummary& t, const iceberg::TableMetadata& metadata,
                                   const std::string& metadata_location) {
  std::vector<std::vector<std::string>> rows = {
      {"table", t.table},
      {"snapshot", Count(t.snapshot_id) + (t.operation.empty() ? "" : " (" + t.operation + ")")},
      {"snapshot time", t.snapshot_time.empty() ? "-" : t.snapshot_time},
      {"snapshots", std::to_string(t.snapshots)},
      {"rows", Count(t.records)},
      {"position deletes", Count(t.position_deletes)},
      {"data files", Count(t.data_files)},
      {"delete files", Count(t.delete_files)},
      {"bytes", Count(t.bytes)},
      {"last load id", t.load_id.empty() ? "-" : t.load_id},
      {"format version", std::to_string(metadata.format_version)},
      {"location", metadata.location},
      {"metadata", metadata_location},
      {"partition spec", SpecText(metadata)}};
  std::string text = AlignRows(rows) + "\nproperties\n";
  if (metadata.properties.empty()) text += "  (none)\n";
  for (const auto& [key, value] : metadata.properties) text += "  " + key + " = " + value + "\n";
  return text + "\nschema\n" + FormatSchemaFields(metadata.CurrentSchema());
}

Json TableDescriptionJson(const TableSummary& t, const iceberg::TableMetadata& metadata,
                          const std::string& metadata_location) {
  Json out = SummaryJson(t);
  out["format_version"] = metadata.format_version;
  out["location"] = metadata.location;
  out["metadata_location"] = metadata_location;
  out["partition_spec"] = SpecText(metadata);
  out["properties"] = metadata.properties;
  out["schema"] = SchemaFieldsJson(metadata.CurrentSchema());
  return out;
}

}  // namespace databox::cli
