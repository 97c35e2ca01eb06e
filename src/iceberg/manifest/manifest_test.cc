#include "iceberg/manifest/manifest.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "iceberg/avro/container_reader.h"
#include "iceberg/avro/schema.h"
#include "iceberg/manifest/manifest_list.h"

namespace databox::iceberg {
namespace {

Schema TableSchema() {
  return Schema(0, {NestedField{1, "id", false, Type::Long(), std::nullopt},
                    NestedField{2, "region", false, Type::String(), std::nullopt},
                    NestedField{3, "v", false, Type::Double(), std::nullopt}});
}

PartitionSpec RegionSpec() {
  PartitionSpec spec;
  spec.spec_id = 0;
  spec.fields.push_back(PartitionField{2, 1000, "region", Transform::Identity()});
  return spec;
}

DataFile File(std::string path, std::optional<std::string> region, int64_t rows) {
  DataFile f;
  f.file_path = std::move(path);
  if (region) {
    f.partition.emplace_back(Literal::String(*region));
  } else {
    f.partition.emplace_back(std::nullopt);
  }
  f.record_count = rows;
  f.file_size_in_bytes = 1000 + rows;
  f.column_sizes = {{1, 10}, {2, 20}};
  f.value_counts = {{1, rows}};
  f.null_value_counts = {{1, 0}, {3, 1}};
  f.nan_value_counts = {{3, 0}};
  f.lower_bounds = {{1, std::string("\x01\0\0\0\0\0\0\0", 8)}};
  f.upper_bounds = {{1, std::string("\x09\0\0\0\0\0\0\0", 8)}};
  f.split_offsets = std::vector<int64_t>{4};
  f.sort_order_id = 0;
  return f;
}

// Field ids and names from the table spec's manifest / manifest-list schemas.
TEST(ManifestTest, SchemasCarrySpecFieldIds) {
  auto partition_type = RegionSpec().PartitionType(TableSchema());
  ASSERT_TRUE(partition_type);
  auto json = ManifestAvroSchema(*partition_type);
  ASSERT_TRUE(json) << json.error().ToString();
  auto schema = avro::Schema::Parse(*json);
  ASSERT_TRUE(schema) << schema.error().ToString();
  const avro::AvroNode& entry = schema->root_node();
  EXPECT_EQ(entry.name, "manifest_entry");
  std::vector<std::pair<std::string, int32_t>> ids;
  for (const auto& f : entry.fields) ids.emplace_back(f.name, f.FieldId().value_or(-1));
  EXPECT_EQ(ids, (std::vector<std::pair<std::string, int32_t>>{{"status", 0},
                                                               {"snapshot_id", 1},
                                                               {"sequence_number", 3},
                                                               {"file_sequence_number", 4},
                                                               {"data_file", 2}}));
  const avro::AvroNode& data_file = schema->node(entry.fields[4].type);
  EXPECT_EQ(data_file.name, "r2");
  std::map<std::string, int32_t> df_ids;
  for (const auto& f : data_file.fields) df_ids[f.name] = f.FieldId().value_or(-1);
  EXPECT_EQ(df_ids, (std::map<std::string, int32_t>{{"content", 134},
                                                    {"file_path", 100},
                                                    {"file_format", 101},
                                                    {"partition", 102},
                                                    {"record_count", 103},
                                                    {"file_size_in_bytes", 104},
                                                    {"column_sizes", 108},
                                                    {"value_counts", 109},
                                                    {"null_value_counts", 110},
                                                    {"nan_value_counts", 137},
                                                    {"lower_bounds", 125},
                                                    {"upper_bounds", 128},
                                                    {"key_metadata", 131},
                                                    {"split_offsets", 132},
                                                    {"equality_ids", 135},
                                                    {"sort_order_id", 140}}));
  const avro::AvroNode& partition = schema->node(data_file.fields[3].type);
  EXPECT_EQ(partition.name, "r102");
  ASSERT_EQ(partition.fields.size(), 1u);
  EXPECT_EQ(partition.fields[0].FieldId(), 1000);
  const avro::AvroNode& column_sizes =
      schema->node(schema->node(data_file.fields[6].type).branches[1]);
  EXPECT_EQ(column_sizes.logical_type, "map");
  const avro::AvroNode& kv = schema->node(column_sizes.items);
  EXPECT_EQ(kv.name, "k117_v118");
  EXPECT_EQ(kv.fields[0].FieldId(), 117);
  EXPECT_EQ(kv.fields[1].FieldId(), 118);

  auto list = avro::Schema::Parse(ManifestListAvroSchema());
  ASSERT_TRUE(list);
  std::map<std::string, int32_t> list_ids;
  for (const auto& f : list->root_node().fields) list_ids[f.name] = f.FieldId().value_or(-1);
  EXPECT_EQ(list_ids, (std::map<std::string, int32_t>{{"manifest_path", 500},
                                                      {"manifest_length", 501},
                                                      {"partition_spec_id", 502},
                                                      {"content", 517},
                                                      {"sequence_number", 515},
                                                      {"min_sequence_number", 516},
                                                      {"added_snapshot_id", 503},
                                                      {"added_files_count", 504},
                                                      {"existing_files_count", 505},
                                                      {"deleted_files_count", 506},
                                                      {"added_rows_count", 512},
                                                      {"existing_rows_count", 513},
                                                      {"deleted_rows_count", 514},
                                                      {"partitions", 507},
                                                      {"key_metadata", 519}}));
}

TEST(ManifestTest, RoundTripWithSummaryAndInheritance) {
  std::string bytes;
  auto writer = ManifestWriter::Make(TableSchema(), RegionSpec(), ManifestContent::kData,
                                     /*snapshot_id=*/77, [&bytes](std::string_view b) -> Status {
                                       bytes.append(b);
                                       return Ok();
                                     });
  ASSERT_TRUE(writer) << writer.error().ToString();
  ManifestEntry added{ManifestEntryStatus::kAdded, std::nullopt, std::nullopt, std::nullopt,
                      File("a", "eu", 5)};
  ManifestEntry added_null{ManifestEntryStatus::kAdded, std::nullopt, std::nullopt, std::nullopt,
                           File("b", std::nullopt, 2)};
  ManifestEntry existing{ManifestEntryStatus::kExisting, 50, 3, 2, File("c", "us", 7)};
  ManifestEntry deleted{ManifestEntryStatus::kDeleted, 77, 4, 4, File("d", "ch", 1)};
  for (const auto& e : {added, added_null, existing, deleted}) ASSERT_TRUE(writer->Add(e));
  auto list_entry = writer->Finish("mem://m0.avro");
  ASSERT_TRUE(list_entry) << list_entry.error().ToString();
  EXPECT_EQ(list_entry->manifest_length, static_cast<int64_t>(bytes.size()));
  EXPECT_EQ(list_entry->added_snapshot_id, 77);
  EXPECT_EQ(list_entry->added_files_count, 2);
  EXPECT_EQ(list_entry->added_rows_count, 7);
  EXPECT_EQ(list_entry->existing_files_count, 1);
  EXPECT_EQ(list_entry->existing_rows_count, 7);
  EXPECT_EQ(list_entry->deleted_files_count, 1);
  EXPECT_EQ(list_entry->deleted_rows_count, 1);
  EXPECT_EQ(list_entry->sequence_number, std::nullopt);
  EXPECT_EQ(list_entry->min_sequence_number, 3);
  ASSERT_EQ(list_entry->partitions.size(), 1u);
  EXPECT_TRUE(list_entry->partitions[0].contains_null);
  EXPECT_EQ(list_entry->partitions[0].lower_bound, "ch");
  EXPECT_EQ(list_entry->partitions[0].upper_bound, "us");

  // The list assigns the snapshot's sequence number; reading inherits it into ADDED entries.
  ManifestListOptions options{77, 70, /*sequence_number=*/9, avro::Codec::kDeflate};
  auto list_bytes = WriteManifestList(std::span(&*list_entry, 1), options);
  ASSERT_TRUE(list_bytes) << list_bytes.error().ToString();
  auto list = ReadManifestList(*list_bytes, "mem://list.avro");
  ASSERT_TRUE(list) << list.error().ToString();
  ASSERT_EQ(list->size(), 1u);
  ManifestFile expected = *list_entry;
  expected.sequence_number = 9;
  EXPECT_EQ((*list)[0], expected);

  auto manifest = ReadManifest(bytes, (*list)[0]);
  ASSERT_TRUE(manifest) << manifest.error().ToString();
  EXPECT_EQ(manifest->format_version, 2);
  EXPECT_EQ(manifest->content, ManifestContent::kData);
  ASSERT_EQ(manifest->entries.size(), 4u);
  ManifestEntry inherited = added;
  inherited.snapshot_id = 77;
  inherited.sequence_number = 9;
  inherited.file_sequence_number = 9;
  EXPECT_EQ(manifest->entries[0], inherited);
  EXPECT_EQ(manifest->entries[1].data_file.partition[0], std::nullopt);
  EXPECT_EQ(manifest->entries[2], existing);
  EXPECT_EQ(manifest->entries[3], deleted);

  // Metadata for readers that do not know the spec (Java/pyiceberg read these keys).
  auto reader = avro::ContainerReader::Open(bytes);
  ASSERT_TRUE(reader);
  EXPECT_EQ(reader->Metadata("format-version"), "2");
  EXPECT_EQ(reader->Metadata("content"), "data");
  EXPECT_EQ(reader->Metadata("partition-spec-id"), "0");
  EXPECT_EQ(
      nlohmann::json::parse(*reader->Metadata("partition-spec")),
      nlohmann::json::parse(
          R"([{"source-id": 2, "field-id": 1000, "name": "region", "transform": "identity"}])"));
  auto list_reader = avro::ContainerReader::Open(*list_bytes);
  ASSERT_TRUE(list_reader);
  EXPECT_EQ(list_reader->Metadata("snapshot-id"), "77");
  EXPECT_EQ(list_reader->Metadata("parent-snapshot-id"), "70");
  EXPECT_EQ(list_reader->Metadata("sequence-number"), "9");
}

TEST(ManifestTest, ExistingEntryWithoutSequenceNumberIsInvalid) {
  std::string bytes;
  auto writer = ManifestWriter::Make(TableSchema(), RegionSpec(), ManifestContent::kData, 1,
                                     [&bytes](std::string_view b) -> Status {
                                       bytes.append(b);
                                       return Ok();
                                     });
  ASSERT_TRUE(writer);
  ASSERT_TRUE(writer->Add(
      {ManifestEntryStatus::kExisting, 1, std::nullopt, std::nullopt, File("x", "eu", 1)}));
  auto list_entry = writer->Finish("m.avro");
  ASSERT_TRUE(list_entry);
  list_entry->sequence_number = 5;
  auto manifest = ReadManifest(bytes, *list_entry);
  ASSERT_FALSE(manifest);
  EXPECT_EQ(manifest.error().kind, ErrorKind::kData);
}

TEST(ManifestTest, WrongPartitionArityIsRejected) {
  auto writer = ManifestWriter::Make(TableSchema(), RegionSpec(), ManifestContent::kData, 1,
                                     [](std::string_view) -> Status { return Ok(); });
  ASSERT_TRUE(writer);
  DataFile f = File("x", "eu", 1);
  f.partition.clear();
  EXPECT_FALSE(
      writer->Add({ManifestEntryStatus::kAdded, std::nullopt, std::nullopt, std::nullopt, f}));
}

}  // namespace
}  // namespace databox::iceberg
