#include "iceberg/metadata/metadata_json.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "common/test_paths.h"
#include "iceberg/metadata/table_update.h"

namespace databox::iceberg {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string ReadFile(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

void WriteFile(const fs::path& path, const std::string& text) { std::ofstream(path) << text; }

fs::path TempDir(const std::string& name) {
  fs::path dir =
      fs::temp_directory_path() / ("databox_iceberg_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

const fs::path kPython = fs::path(test_paths::VenvDir()) / "bin" / "python";

//! Runs a python script with the project venv; returns its stdout, or nullopt on failure.
std::optional<std::string> RunPython(const fs::path& dir, const std::string& script,
                                     const std::string& arg) {
  WriteFile(dir / "script.py", script);
  const std::string cmd = kPython.string() + " " + (dir / "script.py").string() + " " + arg +
                          " > " + (dir / "out.txt").string() + " 2> " + (dir / "err.txt").string();
  if (std::system(cmd.c_str()) != 0) {
    ADD_FAILURE() << "python failed: " << ReadFile(dir / "err.txt");
    return std::nullopt;
  }
  return ReadFile(dir / "out.txt");
}

// pyiceberg (an independent writer) creates two tables through its SQL catalog: one with
// day/bucket partitioning and no data, one with two appends (three metadata versions).
constexpr const char* kPyicebergWriter = R"PY(
import sys, datetime, decimal
import pyarrow as pa
from pyiceberg.catalog.sql import SqlCatalog
from pyiceberg.schema import Schema
from pyiceberg.types import (NestedField, LongType, StringType, TimestampType, DecimalType,
                             ListType, MapType, DoubleType)
from pyiceberg.partitioning import PartitionSpec, PartitionField
from pyiceberg.transforms import DayTransform, BucketTransform, IdentityTransform
d = sys.argv[1]
cat = SqlCatalog("t", uri=f"sqlite:///{d}/cat.db", warehouse=f"file://{d}/wh")
cat.create_namespace("ns")
schema = Schema(
    NestedField(1, "id", LongType(), required=True),
    NestedField(2, "name", StringType(), required=False, doc="display name"),
    NestedField(3, "ts", TimestampType(), required=False),
    NestedField(4, "amount", DecimalType(9, 2), required=False),
    NestedField(5, "tags", ListType(element_id=7, element_type=StringType(), element_required=True), required=False),
    NestedField(6, "attrs", MapType(key_id=8, key_type=StringType(), value_id=9, value_type=DoubleType(),
                                    value_required=False), required=False),
    identifier_field_ids=[1])
t0 = cat.create_table("ns.transforms", schema=schema, partition_spec=PartitionSpec(
    PartitionField(source_id=3, field_id=1000, transform=DayTransform(), name="ts_day"),
    PartitionField(source_id=1, field_id=1001, transform=BucketTransform(16), name="id_bucket")))
t = cat.create_table("ns.t", schema=schema, partition_spec=PartitionSpec(
    PartitionField(source_id=1, field_id=1000, transform=IdentityTransform(), name="id")),
    properties={"owner": "databox"})
rows = [{"id": 34, "name": "a", "ts": datetime.datetime(2017, 11, 16, 22, 31, 8),
         "amount": decimal.Decimal("14.20"), "tags": ["x"], "attrs": {"k": 1.5}}]
t.append(pa.Table.from_pylist(rows, schema=t.schema().as_arrow()))
t.append(pa.Table.from_pylist(rows, schema=t.schema().as_arrow()))
print(t0.metadata_location.removeprefix("file://"))
print(t.metadata_location.removeprefix("file://"))
)PY";

TEST(MetadataJsonTest, ReadsMetadataWrittenByPyiceberg) {
  if (!fs::exists(kPython))
    GTEST_SKIP() << "no project venv at " << kPython << ": run scripts/setup";
  const fs::path dir = TempDir("pyiceberg");
  auto out = RunPython(dir, kPyicebergWriter, dir.string());
  ASSERT_TRUE(out);
  std::istringstream lines(*out);
  std::string transforms_path, table_path;
  std::getline(lines, transforms_path);
  std::getline(lines, table_path);

  const json transforms_json = json::parse(ReadFile(transforms_path));
  auto transforms = TableMetadataFromJson(transforms_json);
  ASSERT_TRUE(transforms) << transforms.error().ToString();
  const PartitionSpec* spec = transforms->DefaultSpec();
  ASSERT_NE(spec, nullptr);
  ASSERT_EQ(spec->fields.size(), 2u);
  EXPECT_EQ(spec->fields[0].transform, Transform::Day());
  EXPECT_EQ(spec->fields[1].transform, Transform::Bucket(16));
  EXPECT_EQ(transforms->last_partition_id, 1001);
  EXPECT_EQ(transforms->CurrentSnapshot(), nullptr);
  auto partition_type = spec->PartitionType(*transforms->CurrentSchema());
  ASSERT_TRUE(partition_type);
  EXPECT_EQ(partition_type->fields()[0].type, Type::Date());

  const json table_json = json::parse(ReadFile(table_path));
  auto md = TableMetadataFromJson(table_json);
  ASSERT_TRUE(md) << md.error().ToString();
  EXPECT_EQ(md->format_version, 2);
  EXPECT_EQ(md->last_column_id, 9);
  const Schema* schema = md->CurrentSchema();
  ASSERT_NE(schema, nullptr);
  EXPECT_EQ(schema->identifier_field_ids(), std::vector<int32_t>{1});
  EXPECT_EQ(schema->FindFieldByName("amount")->type, Type::Decimal(9, 2));
  EXPECT_EQ(schema->FindFieldByName("name")->doc, "display name");
  EXPECT_EQ(schema->FindFieldByName("tags.element")->id, 7);
  EXPECT_EQ(schema->FindFieldById(9)->name, "value");
  EXPECT_EQ(md->properties.at("owner"), "databox");
  ASSERT_EQ(md->snapshots.size(), 2u);
  const Snapshot* current = md->CurrentSnapshot();
  ASSERT_NE(current, nullptr);
  EXPECT_EQ(current->sequence_number, 2);
  EXPECT_EQ(current->operation(), "append");
  EXPECT_EQ(current->parent_snapshot_id, md->snapshots[0].snapshot_id);
  EXPECT_EQ(md->last_sequence_number, 2);
  EXPECT_EQ(md->RefByName("main")->snapshot_id, current->snapshot_id);
  EXPECT_EQ(md->snapshot_log.size(), 2u);
  EXPECT_EQ(md->metadata_log.size(), 2u);
  EXPECT_EQ(md->NextSequenceNumber(), 3);

  // Writing it back yields the same JSON document pyiceberg wrote, field for field.
  EXPECT_EQ(TableMetadataToJson(*md), table_json);
  fs::remove_all(dir);
}

constexpr const char* kPyicebergReader = R"PY(
import sys
from pyiceberg.table.metadata import TableMetadataUtil
m = TableMetadataUtil.parse_raw(open(sys.argv[1]).read())
s = m.schema()
print(m.format_version, m.current_snapshot_id, m.last_sequence_number, m.last_column_id,
      len(m.snapshots), m.refs["main"].snapshot_id, s.find_field("loc.lat").field_id,
      m.spec().fields[0].transform, m.sort_order_by_id(m.default_sort_order_id).order_id)
)PY";

TEST(MetadataJsonTest, PyicebergReadsOurMetadata) {
  if (!fs::exists(kPython))
    GTEST_SKIP() << "no project venv at " << kPython << ": run scripts/setup";
  Schema schema(
      0,
      {NestedField{10, "id", true, Type::Long(), {}},
       NestedField{
           11, "loc", false, Type::Struct({NestedField{12, "lat", true, Type::Double(), {}}}), {}},
       NestedField{13, "ts", false, Type::TimestampTz(), {}}});
  PartitionSpec spec{0, {PartitionField{13, 0, "ts_day", Transform::Day()}}};
  SortOrder order{
      1, {SortField{10, Transform::Identity(), SortDirection::kAsc, NullOrder::kNullsFirst}}};
  auto md = NewTableMetadata(schema, spec, order, "file:///tmp/t/", {{"k", "v"}});
  ASSERT_TRUE(md) << md.error().ToString();
  const int64_t id = md->NewSnapshotId();
  Snapshot snap{id,
                std::nullopt,
                md->NextSequenceNumber(),
                1700000000000,
                "file:///tmp/t/metadata/snap.avro",
                {{"operation", "append"}},
                0};
  std::vector<TableUpdate> updates{AddSnapshot{snap},
                                   SetSnapshotRef{"main", SnapshotRef::Branch(id)}};
  auto next = ApplyUpdates(&*md, updates);
  ASSERT_TRUE(next) << next.error().ToString();

  const fs::path dir = TempDir("ours");
  WriteFile(dir / "v1.metadata.json", TableMetadataToJsonString(*next));
  auto out = RunPython(dir, kPyicebergReader, (dir / "v1.metadata.json").string());
  ASSERT_TRUE(out);
  // loc.lat gets fresh id 4 (top-level fields 1..3 first); the sort order keeps id 1.
  EXPECT_EQ(*out, "2 " + std::to_string(id) + " 1 4 1 " + std::to_string(id) + " 4 day 1\n");
  fs::remove_all(dir);
}

//! Metadata that sets every field the writer knows, with two snapshots and three refs.
TableMetadata EveryFieldMetadata() {
  TableMetadata md;
  md.table_uuid = "9c12d441-03fe-4693-9a96-a0705ddf69c1";
  md.location = "s3://bucket/t";
  md.last_sequence_number = 5;
  md.last_updated_ms = 1602638573590;
  md.last_column_id = 3;
  md.schemas = {Schema(0, {NestedField{1, "x", true, Type::Long(), {}}}),
                Schema(1,
                       {NestedField{1, "x", true, Type::Long(), {}},
                        NestedField{3, "z", false, Type::Fixed(4), {}}},
                       {1})};
  md.current_schema_id = 1;
  md.partition_specs = {
      PartitionSpec{0, {PartitionField{1, 1000, "x_bucket", Transform::Bucket(8)}}}};
  md.last_partition_id = 1000;
  md.properties = {{"a", "b"}};
  md.snapshots = {Snapshot{7,
                           std::nullopt,
                           4,
                           1602638573000,
                           "s3://bucket/t/metadata/snap-7.avro",
                           {{"operation", "append"}},
                           0},
                  Snapshot{8,
                           7,
                           5,
                           1602638573590,
                           "s3://bucket/t/metadata/snap-8.avro",
                           {{"operation", "overwrite"}},
                           1}};
  md.current_snapshot_id = 8;
  md.refs = {{"main", SnapshotRef::Branch(8)},
             {"audit", SnapshotRef{7, SnapshotRefType::kTag, std::nullopt, std::nullopt, 86400000}},
             {"dev", SnapshotRef{7, SnapshotRefType::kBranch, 2, 3600000, std::nullopt}}};
  md.snapshot_log = {{7, 1602638573000}, {8, 1602638573590}};
  md.metadata_log = {{"s3://bucket/t/metadata/v1.json", 1602638570000}};
  md.sort_orders = {
      SortOrder::Unsorted(),
      SortOrder{3,
                {SortField{1, Transform::Bucket(4), SortDirection::kDesc, NullOrder::kNullsLast}}}};
  md.default_sort_order_id = 3;
  // Kept as written (another engine's; compact JSON as our parser renders it).
  md.statistics = {
      {7, R"({"blob-metadata":[{"fields":[1],"snapshot-id":7,"type":"apache-datasketches-theta-)"
          R"(v1"}],"file-footer-size-in-bytes":20,"file-size-in-bytes":100,"snapshot-id":7,)"
          R"("statistics-path":"s3://bucket/t/metadata/7.stats"})"}};
  md.partition_statistics = {
      {8,
       R"({"file-size-in-bytes":42,"snapshot-id":8,"statistics-path":"s3://bucket/t/p8.parquet"})"}};
  return md;
}

TEST(MetadataJsonTest, RoundTripKeepsEveryField) {
  const TableMetadata md = EveryFieldMetadata();
  ASSERT_TRUE(md.Validate()) << md.Validate().error().ToString();

  const json j = TableMetadataToJson(md);
  EXPECT_EQ(j["refs"]["audit"],
            json::parse(R"({"snapshot-id":7,"type":"tag","max-ref-age-ms":86400000})"));
  EXPECT_EQ(
      j["sort-orders"][1]["fields"][0],
      json::parse(
          R"({"transform":"bucket[4]","source-id":1,"direction":"desc","null-order":"nulls-last"})"));
  auto back = ParseTableMetadata(TableMetadataToJsonString(md));
  ASSERT_TRUE(back) << back.error().ToString();
  EXPECT_EQ(*back, md);
}

TEST(MetadataJsonTest, TextWriterProducesTheSameDocumentAsTheTreeForm) {
  // The file text is written without a document tree; nlohmann's parser reads it back and
  // it must equal the tree TableMetadataToJson builds field by field.
  TableMetadata md = EveryFieldMetadata();
  // Render once first: snapshots keep their rendering, and copies share it (SnapshotList).
  EXPECT_EQ(json::parse(TableMetadataToJsonString(md)), TableMetadataToJson(md));
  md.snapshots.push_back(Snapshot{9,
                                  8,
                                  5,
                                  1602638573600,
                                  "s3://bucket/t/metadata/snap-9.avro",
                                  {{"operation", "append"}, {"added-records", "12"}},
                                  std::nullopt});
  md.last_sequence_number = 6;
  const std::string text = TableMetadataToJsonString(md);
  const json parsed = json::parse(text);
  EXPECT_EQ(parsed, TableMetadataToJson(md)) << text;
  EXPECT_FALSE(parsed["snapshots"][2].contains("schema-id"));
  EXPECT_EQ(parsed["snapshots"][1]["parent-snapshot-id"], 7);

  md.current_snapshot_id.reset();
  md.refs.clear();
  EXPECT_TRUE(json::parse(TableMetadataToJsonString(md))["current-snapshot-id"].is_null());
}

TEST(MetadataJsonTest, StatisticsOfRemovedSnapshotsGo) {
  TableMetadata md = EveryFieldMetadata();
  md.refs.erase("audit");
  md.refs.erase("dev");
  const std::vector<TableUpdate> updates = {RemoveSnapshots{{7}}};
  auto applied = ApplyUpdates(&md, updates);
  ASSERT_TRUE(applied) << applied.error().ToString();
  EXPECT_TRUE(applied->statistics.empty());
  ASSERT_EQ(applied->partition_statistics.size(), 1u);
  EXPECT_EQ(
      json::parse(TableMetadataToJsonString(*applied))["partition-statistics"][0]["snapshot-id"],
      8);
  json bad = TableMetadataToJson(EveryFieldMetadata());
  bad["statistics"] = json::array({json{{"statistics-path", "x"}}});
  auto refused = TableMetadataFromJson(bad);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().kind, ErrorKind::kData);
  EXPECT_NE(refused.error().message.find("snapshot-id"), std::string::npos)
      << refused.error().message;
}

TEST(MetadataJsonTest, TextWriterEscapesStringsAndReplacesInvalidUtf8) {
  TableMetadata md = EveryFieldMetadata();
  const std::string kReplacement = "\xEF\xBF\xBD";  // U+FFFD in UTF-8
  const std::map<std::string, std::string> kept = {
      {"quote", "say \"hi\""},
      {"backslash", "C:\\dir\\"},
      {"controls", std::string("a\b\f\n\r\t") + '\x01' + '\x1f' + '\x7f' + "z"},
      {"nul", std::string("x\0y", 3)},
      {"utf8", "\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80 \xF4\x8F\xBF\xBF"},
      {"key \"with\" escapes\n", "v"},
  };
  const std::map<std::string, std::pair<std::string, std::string>> replaced = {
      {"lone-ff",
       {"a\xFF"
        "b",
        "a" + kReplacement + "b"}},
      {"truncated", {"\xC3(", kReplacement + "("}},
      {"surrogate", {"\xED\xA0\x80", kReplacement + kReplacement + kReplacement}},
      {"overlong", {"\xC0\xAF", kReplacement + kReplacement}},
      {"above-max",
       {"\xF4\x90\x80\x80", kReplacement + kReplacement + kReplacement + kReplacement}},
      {"cut-at-end", {"ok\xE2\x82", "ok" + kReplacement + kReplacement}},
  };
  md.properties = kept;
  for (const auto& [k, v] : replaced) md.properties[k] = v.first;
  md.snapshots.push_back(Snapshot{9,
                                  8,
                                  6,
                                  1602638573600,
                                  "s3://b/t/metadata/snap \"9\".avro",
                                  {{"operation", "append"}, {"note", "line1\nline2"}},
                                  std::nullopt});
  md.last_sequence_number = 6;

  const json parsed = json::parse(TableMetadataToJsonString(md));
  for (const auto& [k, v] : kept) EXPECT_EQ(parsed["properties"][k], v) << k;
  for (const auto& [k, v] : replaced) EXPECT_EQ(parsed["properties"][k], v.second) << k;
  EXPECT_EQ(parsed["snapshots"][2]["manifest-list"], "s3://b/t/metadata/snap \"9\".avro");
  EXPECT_EQ(parsed["snapshots"][2]["summary"]["note"], "line1\nline2");
}

TEST(MetadataJsonTest, UpgradesVersionOne) {
  // v1 layout: singular schema and partition-spec, no uuid requirement, no sequence numbers,
  // no refs, current-snapshot-id -1 for "none" in older writers.
  const json v1 = json::parse(R"({
    "format-version": 1, "location": "file:///w/t", "last-updated-ms": 1000, "last-column-id": 2,
    "schema": {"type": "struct", "fields": [
      {"id": 1, "name": "a", "required": true, "type": "int"},
      {"id": 2, "name": "b", "required": false, "type": "string"}]},
    "partition-spec": [{"name": "a", "transform": "identity", "source-id": 1}],
    "properties": {}, "current-snapshot-id": 42,
    "snapshots": [{"snapshot-id": 42, "timestamp-ms": 900, "manifest-list": "file:///w/t/m.avro",
                   "summary": {"operation": "append"}}]})");
  auto md = TableMetadataFromJson(v1);
  ASSERT_TRUE(md) << md.error().ToString();
  EXPECT_EQ(md->format_version, 2);
  EXPECT_EQ(md->table_uuid.size(), 36u);
  EXPECT_EQ(md->schemas.size(), 1u);
  EXPECT_EQ(md->current_schema_id, 0);
  ASSERT_EQ(md->partition_specs.size(), 1u);
  EXPECT_EQ(md->partition_specs[0].fields[0].field_id, 1000);
  EXPECT_EQ(md->last_partition_id, 1000);
  EXPECT_EQ(md->snapshots[0].sequence_number, 0);
  EXPECT_EQ(md->RefByName("main")->snapshot_id, 42);
  EXPECT_EQ(md->DefaultSortOrder()->order_id, 0);
  EXPECT_EQ(TableMetadataToJson(*md)["format-version"], 2);

  json no_snapshot = v1;
  no_snapshot["current-snapshot-id"] = -1;
  auto empty = TableMetadataFromJson(no_snapshot);
  ASSERT_TRUE(empty);
  EXPECT_FALSE(empty->current_snapshot_id.has_value());
  EXPECT_TRUE(empty->refs.empty());
}

TEST(MetadataJsonTest, RejectsBrokenMetadataWithDataErrors) {
  EXPECT_EQ(ParseTableMetadata("{not json").error().kind, ErrorKind::kData);
  const json v2 = json::parse(R"({"format-version": 2, "location": "x", "last-updated-ms": 1,
    "last-column-id": 1, "last-sequence-number": 0, "current-schema-id": 0,
    "schemas": [{"type":"struct","schema-id":0,"fields":[{"id":1,"name":"a","required":true,"type":"int"}]}],
    "default-spec-id": 0, "partition-specs": [{"spec-id":0,"fields":[]}], "last-partition-id": 999})");
  auto missing_uuid = TableMetadataFromJson(v2);
  ASSERT_FALSE(missing_uuid);
  EXPECT_NE(missing_uuid.error().message.find("table-uuid"), std::string::npos);
  json wrong_schema = v2;
  wrong_schema["table-uuid"] = "9c12d441-03fe-4693-9a96-a0705ddf69c1";
  wrong_schema["current-schema-id"] = 5;
  EXPECT_EQ(TableMetadataFromJson(wrong_schema).error().kind, ErrorKind::kData);
  json v3 = wrong_schema;
  v3["current-schema-id"] = 0;
  v3["format-version"] = 3;
  EXPECT_FALSE(TableMetadataFromJson(v3));
}

}  // namespace
}  // namespace databox::iceberg
