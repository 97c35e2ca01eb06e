#include "cli/table_inspection.h"

#include <cstdint>

#include "cli/table_format.h"
#include "cli/table_summary.h"
#include "common/clock.h"
#include "common/json_integer.h"

namespace databox::cli {
namespace {

using Json = nlohmann::ordered_json;

//! The name of the column `id` in the current schema, else in the newest older schema that has
//! it (a spec or order may name a dropped column); "" when none has it.
std::string ColumnName(const iceberg::TableMetadata& metadata, int32_t id) {
  if (const iceberg::Schema* schema = metadata.CurrentSchema(); schema != nullptr) {
    if (std::string name = schema->FindNameById(id); !name.empty()) return name;
  }
  for (auto it = metadata.schemas.rbegin(); it != metadata.schemas.rend(); ++it) {
    if (std::string name = it->FindNameById(id); !name.empty()) return name;
  }
  return "";
}

std::string ColumnOrId(const iceberg::TableMetadata& metadata, int32_t id) {
  const std::string name = ColumnName(metadata, id);
  return name.empty() ? "field " + std::to_string(id) : name;
}

std::string SummaryValue(const iceberg::Snapshot& snapshot, const char* key) {
  auto it = snapshot.summary.find(key);
  return it == snapshot.summary.end() ? std::string("-") : it->second;
}

std::string SpecText(const iceberg::TableMetadata& metadata, const iceberg::PartitionSpec& spec) {
  if (spec.is_unpartitioned()) return "unpartitioned";
  std::string text;
  for (const auto& field : spec.fields) {
    text += (text.empty() ? "" : ", ") + field.name + " = " +
            TransformText(field.transform.ToString(), ColumnOrId(metadata, field.source_id));
  }
  return text;
}

Json SpecJson(const iceberg::TableMetadata& metadata, const iceberg::PartitionSpec& spec) {
  Json fields = Json::array();
  for (const auto& field : spec.fields) {
    fields.push_back({{"name", field.name},
                      {"field_id", field.field_id},
                      {"source_id", field.source_id},
                      {"source_column", ColumnName(metadata, field.source_id)},
                      {"transform", field.transform.ToString()}});
  }
  return Json{{"spec_id", spec.spec_id},
              {"default", spec.spec_id == metadata.default_spec_id},
              {"fields", fields}};
}

const char* DirectionName(iceberg::SortDirection direction) {
  return direction == iceberg::SortDirection::kAsc ? "asc" : "desc";
}

const char* NullOrderName(iceberg::NullOrder order) {
  return order == iceberg::NullOrder::kNullsFirst ? "nulls-first" : "nulls-last";
}

std::string SortOrderText(const iceberg::TableMetadata& metadata) {
  const iceberg::SortOrder* order = metadata.DefaultSortOrder();
  if (order == nullptr || order->is_unsorted()) return "unsorted";
  std::string text;
  for (const auto& field : order->fields) {
    const std::string column = ColumnOrId(metadata, field.source_id);
    const std::string term = field.transform == iceberg::Transform::Identity()
                                 ? column
                                 : TransformText(field.transform.ToString(), column);
    text += (text.empty() ? "" : ", ") + term + " " + DirectionName(field.direction) + " " +
            NullOrderName(field.null_order);
  }
  return text;
}

Json SortOrderJson(const iceberg::TableMetadata& metadata) {
  Json fields = Json::array();
  const iceberg::SortOrder* order = metadata.DefaultSortOrder();
  if (order != nullptr) {
    for (const auto& field : order->fields) {
      fields.push_back({{"source_id", field.source_id},
                        {"source_column", ColumnName(metadata, field.source_id)},
                        {"transform", field.transform.ToString()},
                        {"direction", DirectionName(field.direction)},
                        {"null_order", NullOrderName(field.null_order)}});
    }
  }
  return Json{{"order_id", metadata.default_sort_order_id}, {"fields", fields}};
}

//! The number of files and their bytes (and, for delete files, the positions they delete).
struct FileTotals {
  int64_t files = 0;
  int64_t bytes = 0;
  int64_t records = 0;
};

FileTotals Totals(const std::vector<iceberg::DataFile>& files) {
  FileTotals totals;
  for (const auto& file : files) {
    ++totals.files;
    totals.bytes += file.file_size_in_bytes;
    totals.records += file.record_count;
  }
  return totals;
}

//! "data files +1 -2" from the summary counters `added` and `removed`; "" when neither is there.
std::string Change(const iceberg::Snapshot& s, const char* label, const char* added,
                   const char* removed) {
  const auto a = s.summary.find(added);
  const auto r = s.summary.find(removed);
  if (a == s.summary.end() && r == s.summary.end()) return "";
  return std::string(label) + " +" + (a == s.summary.end() ? "0" : a->second) + " -" +
         (r == s.summary.end() ? "0" : r->second);
}

//! Two lines: id, time, operation, load id, rows; then what the snapshot changed (the summary
//! counters it has).
std::string SnapshotText(const iceberg::Snapshot& s) {
  auto get = [&](const char* key) { return SummaryValue(s, key); };
  std::string text = "  " + std::to_string(s.snapshot_id) + "  " + MillisIso(s.timestamp_ms) +
                     "  " + s.operation() + "  load " + get("databox.load-id") + "  +" +
                     get("added-records") + " rows, total " + get("total-records") + "\n";
  std::string changes;
  for (std::string part :
       {Change(s, "data files", "added-data-files", "deleted-data-files"),
        Change(s, "rows", "added-records", "deleted-records"),
        Change(s, "delete files", "added-delete-files", "removed-delete-files"),
        Change(s, "bytes", "added-files-size", "removed-files-size"),
        s.summary.contains("total-files-size") ? "total " + get("total-files-size") + " bytes"
                                               : std::string()}) {
    if (!part.empty()) changes += (changes.empty() ? "" : ", ") + part;
  }
  return changes.empty() ? text : text + "      " + changes + "\n";
}

Json SnapshotJson(const iceberg::Snapshot& s) {
  return Json{{"snapshot_id", JsonInteger<Json>(s.snapshot_id)},
              {"parent_snapshot_id",
               s.parent_snapshot_id ? JsonInteger<Json>(*s.parent_snapshot_id) : Json()},
              {"sequence_number", s.sequence_number},
              {"timestamp_ms", s.timestamp_ms},
              {"time", MillisIso(s.timestamp_ms)},
              {"operation", s.operation()},
              {"load_id", SummaryValue(s, "databox.load-id")},
              {"added_records", SummaryValue(s, "added-records")},
              {"total_records", SummaryValue(s, "total-records")},
              {"summary", s.summary}};  // Iceberg's counters, as text
}

}  // namespace

std::string TransformText(const std::string& transform, const std::string& column) {
  return transform + "(" + column + ")";
}

std::string FormatInspection(const TableInspection& in) {
  const iceberg::TableMetadata& md = in.metadata;
  const FileTotals data = Totals(in.live.data);
  const FileTotals deletes = Totals(in.live.deletes);
  const iceberg::PartitionSpec* spec = md.DefaultSpec();
  std::vector<std::vector<std::string>> rows = {
      {"table", in.table},
      {"uuid", md.table_uuid},
      {"format version", std::to_string(md.format_version)},
      {"location", md.location},
      {"metadata", in.metadata_location},
      {"rows", std::to_string(in.rows)},
      {"data files", std::to_string(data.files) + " (" + std::to_string(data.bytes) + " bytes)"},
      {"delete files", std::to_string(deletes.files) + " (" + std::to_string(deletes.bytes) +
                           " bytes, " + std::to_string(deletes.records) + " deleted rows)"},
      {"partition spec", spec == nullptr ? "-" : SpecText(md, *spec)},
      {"sort order", SortOrderText(md)}};
  std::string text = AlignRows(rows);
  if (md.partition_specs.size() > 1) {
    text += "\npartition specs\n";
    for (const auto& s : md.partition_specs) {
      text += "  " + std::to_string(s.spec_id) +
              (s.spec_id == md.default_spec_id ? " (default)" : "") + "  " + SpecText(md, s) + "\n";
    }
  }
  text += "\nproperties\n";
  if (md.properties.empty()) text += "  (none)\n";
  for (const auto& [key, value] : md.properties) text += "  " + key + " = " + value + "\n";
  text += "\nschema\n" + FormatSchemaFields(md.CurrentSchema());
  text += "\nsnapshots (newest first)\n";
  for (const auto& s : in.history) text += SnapshotText(s);
  text += "\nfiles\n";
  for (const auto& f : in.live.data) {
    text += "  " + f.file_path + "  " + std::to_string(f.record_count) + " rows  " +
            std::to_string(f.file_size_in_bytes) + " bytes\n";
  }
  // Merge-on-read leaves position delete files; `databox maintain --rewrite-deletes` folds them.
  if (!in.live.deletes.empty()) text += "\ndelete files (position deletes)\n";
  for (const auto& f : in.live.deletes) {
    text += "  " + f.file_path + "  " + std::to_string(f.record_count) + " deleted rows  " +
            std::to_string(f.file_size_in_bytes) + " bytes\n";
  }
  return text;
}

Json InspectionJson(const TableInspection& in) {
  const iceberg::TableMetadata& md = in.metadata;
  const FileTotals data = Totals(in.live.data);
  const FileTotals deletes = Totals(in.live.deletes);
  Json json;
  json["table"] = in.table;
  json["metadata_location"] = in.metadata_location;
  json["rows"] = in.rows;
  json["format_version"] = md.format_version;
  json["table_uuid"] = md.table_uuid;
  json["location"] = md.location;
  json["sizes"] = {{"data_files", data.files},      {"data_bytes", data.bytes},
                   {"data_records", data.records},  {"delete_files", deletes.files},
                   {"delete_bytes", deletes.bytes}, {"deleted_positions", deletes.records}};
  Json specs = Json::array();
  for (const auto& spec : md.partition_specs) specs.push_back(SpecJson(md, spec));
  json["default_spec_id"] = md.default_spec_id;
  json["partition_specs"] = specs;
  json["sort_order"] = SortOrderJson(md);
  json["properties"] = md.properties;
  json["schema"] = SchemaFieldsJson(md.CurrentSchema());
  Json snaps = Json::array();
  for (const auto& s : in.history) snaps.push_back(SnapshotJson(s));
  json["snapshots"] = snaps;
  Json files = Json::array();
  for (const auto& f : in.live.data) {
    files.push_back(
        {{"path", f.file_path}, {"records", f.record_count}, {"bytes", f.file_size_in_bytes}});
  }
  json["files"] = files;
  Json delete_files = Json::array();
  for (const auto& f : in.live.deletes) {
    delete_files.push_back(
        {{"path", f.file_path}, {"positions", f.record_count}, {"bytes", f.file_size_in_bytes}});
  }
  json["delete_files"] = delete_files;
  return json;
}

}  // namespace databox::cli
