// PlanTable + WriteTableMetadata on a table written by hand: the target's metadata, manifest list
// and manifests name target locations only, and every entry keeps its sequence numbers.
#include "publish/table_write.h"

#include <gtest/gtest.h>

#include "fileio/location.h"
#include "iceberg/data/position_deletes.h"
#include "iceberg/manifest/manifest_list.h"
#include "iceberg/metadata/metadata_json.h"
#include "iceberg/metadata/table_update.h"
#include "iceberg/produce/snapshot_producer.h"
#include "publish/delete_rewrite.h"
#include "publish/table_plan.h"
#include "publish/test_util.h"

namespace databox::publish {
namespace {

using iceberg::DataFileContent;
using iceberg::ManifestContent;
using iceberg::ManifestEntry;
using iceberg::ManifestEntryStatus;

class TableWriteTest : public testing::PublishTest {
 protected:
  void SetUp() override {
    PublishTest::SetUp();
    warehouse_ = Path("warehouse/lake/raw_x/t");
    iceberg::Schema schema(0, {iceberg::NestedField{.id = 1,
                                                    .name = "id",
                                                    .required = true,
                                                    .type = iceberg::Type::Long(),
                                                    .doc = std::nullopt}});
    auto metadata = iceberg::NewTableMetadata(
        schema, iceberg::PartitionSpec::Unpartitioned(), iceberg::SortOrder::Unsorted(), warehouse_,
        {{"write.data.path", warehouse_ + "/data"}, {"owner", "me"}});
    ASSERT_TRUE(metadata.has_value()) << metadata.error().ToString();
    metadata_ = std::move(*metadata);
    data_path_ = warehouse_ + "/data/a.parquet";
    deletes_path_ = warehouse_ + "/data/a-deletes.parquet";
    // Snapshot 11 (sequence 1) added the data file; snapshot 22 (sequence 2) its deletes.
    ManifestEntry data;
    data.status = ManifestEntryStatus::kAdded;
    data.snapshot_id = 11;
    data.sequence_number = 1;
    data.file_sequence_number = 1;
    data.data_file.file_path = data_path_;
    data.data_file.record_count = 10;
    data.data_file.file_size_in_bytes = 500;
    ManifestEntry deletes;
    deletes.status = ManifestEntryStatus::kAdded;
    deletes.snapshot_id = 22;
    deletes.sequence_number = 2;
    deletes.file_sequence_number = 2;
    deletes.data_file.content = DataFileContent::kPositionDeletes;
    deletes.data_file.file_path = deletes_path_;
    deletes.data_file.record_count = 3;
    deletes.data_file.file_size_in_bytes = 80;
    deletes.data_file.lower_bounds[iceberg::kDeleteFilePathFieldId] = data_path_;
    deletes.data_file.upper_bounds[iceberg::kDeleteFilePathFieldId] = data_path_;
    std::vector<fileio::NewObject> objects;
    auto m1 = iceberg::EncodeManifestFile(warehouse_ + "/metadata/m1.avro", schema,
                                          iceberg::PartitionSpec::Unpartitioned(), 11, {data},
                                          objects, ManifestContent::kData);
    auto m2 = iceberg::EncodeManifestFile(warehouse_ + "/metadata/m2.avro", schema,
                                          iceberg::PartitionSpec::Unpartitioned(), 22, {deletes},
                                          objects, ManifestContent::kDeletes);
    ASSERT_TRUE(m1.has_value() && m2.has_value());
    m1->sequence_number = 1;
    m1->min_sequence_number = 1;
    std::vector<iceberg::ManifestFile> list{*m1, *m2};
    auto list_bytes = iceberg::WriteManifestList(
        list, {.snapshot_id = 22, .parent_snapshot_id = 11, .sequence_number = 2});
    ASSERT_TRUE(list_bytes.has_value());
    objects.push_back({warehouse_ + "/metadata/snap-22.avro", *list_bytes});
    for (const auto& object : objects) ASSERT_TRUE(io_->Write(object.location, object.bytes));
    iceberg::Snapshot snapshot;
    snapshot.snapshot_id = 22;
    snapshot.parent_snapshot_id = 11;
    snapshot.sequence_number = 2;
    snapshot.timestamp_ms = 1000;
    snapshot.manifest_list = warehouse_ + "/metadata/snap-22.avro";
    snapshot.summary = {{"operation", "overwrite"}, {"databox.load-id", "1.5"}};
    snapshot.schema_id = 0;
    metadata_.snapshots.push_back(snapshot);
    metadata_.current_snapshot_id = 22;
    metadata_.last_sequence_number = 2;
    metadata_.refs["main"] = iceberg::SnapshotRef::Branch(22);
  }

  std::string warehouse_, data_path_, deletes_path_;
  iceberg::TableMetadata metadata_;
};

TEST_F(TableWriteTest, MetadataNamesTargetLocationsOnlyAndKeepsSequenceNumbers) {
  const Layout layout(Path("target"));
  auto plan = PlanTable({{"raw_x"}, "t"}, metadata_, *io_, layout);
  ASSERT_TRUE(plan.has_value()) << plan.error().ToString();
  EXPECT_EQ(plan->rows, 7);  // 10 rows, 3 deleted
  ASSERT_EQ(plan->targets.size(), 2u);
  const std::string data_target = plan->targets.at(data_path_);
  EXPECT_TRUE(data_target.starts_with(Path("target/data/raw_x/t/"))) << data_target;

  std::map<std::string, iceberg::DataFile> deletes;
  for (const auto& group : plan->groups) {
    for (const auto& entry : group.entries) {
      if (entry.data_file.content != DataFileContent::kPositionDeletes) continue;
      deletes[entry.data_file.file_path] = PublishedDeleteFile(
          entry.data_file, plan->targets.at(entry.data_file.file_path), 77, plan->targets);
    }
  }
  auto location = WriteTableMetadata(*plan, deletes, {Path("warehouse")}, *io_, layout, 3);
  ASSERT_TRUE(location.has_value()) << location.error().ToString();
  EXPECT_EQ(*location, Path("target/versions/000003/tables/raw_x/t/metadata/v1.metadata.json"));

  // No written file mentions the warehouse (raw bytes, so Avro headers count too).
  auto written = io_->List(Path("target") + "/");
  ASSERT_TRUE(written.has_value());
  ASSERT_EQ(written->size(), 5u);  // metadata, version hint, list, two manifests
  for (const auto& file : *written) {
    const std::string bytes = io_->Read(file.location).value_or("");
    EXPECT_EQ(bytes.find(Path("warehouse")), std::string::npos) << file.location;
  }

  auto metadata = iceberg::ParseTableMetadata(io_->Read(*location).value_or(""));
  ASSERT_TRUE(metadata.has_value()) << metadata.error().ToString();
  EXPECT_EQ(metadata->location, Path("target/versions/000003/tables/raw_x/t"));
  EXPECT_EQ(metadata->table_uuid, metadata_.table_uuid);
  EXPECT_EQ(metadata->properties.count("write.data.path"), 0u);
  EXPECT_EQ(metadata->properties.at("owner"), "me");
  ASSERT_EQ(metadata->snapshots.size(), 1u);
  const iceberg::Snapshot& snapshot = metadata->snapshots[0];
  EXPECT_EQ(snapshot.snapshot_id, 22);
  EXPECT_EQ(snapshot.sequence_number, 2);
  EXPECT_FALSE(snapshot.parent_snapshot_id.has_value());
  EXPECT_EQ(snapshot.summary.at("databox.load-id"), "1.5");

  auto list = iceberg::ReadManifestList(io_->Read(snapshot.manifest_list).value_or(""), "list");
  ASSERT_TRUE(list.has_value()) << list.error().ToString();
  ASSERT_EQ(list->size(), 2u);
  std::map<std::string, ManifestEntry> entries;
  for (const auto& manifest_file : *list) {
    EXPECT_TRUE(manifest_file.manifest_path.starts_with(Path("target/versions/000003/")));
    auto manifest =
        iceberg::ReadManifest(io_->Read(manifest_file.manifest_path).value_or(""), manifest_file);
    ASSERT_TRUE(manifest.has_value()) << manifest.error().ToString();
    for (const auto& entry : manifest->entries) entries[entry.data_file.file_path] = entry;
  }
  ASSERT_EQ(entries.size(), 2u);
  const ManifestEntry& data = entries.at(data_target);
  EXPECT_EQ(data.status, ManifestEntryStatus::kExisting);
  EXPECT_EQ(data.sequence_number, 1);
  EXPECT_EQ(data.snapshot_id, 11);
  const ManifestEntry& del = entries.at(plan->targets.at(deletes_path_));
  EXPECT_EQ(del.data_file.content, DataFileContent::kPositionDeletes);
  EXPECT_EQ(del.sequence_number, 2);
  EXPECT_EQ(del.data_file.file_size_in_bytes, 77);
  EXPECT_EQ(del.data_file.lower_bounds.at(iceberg::kDeleteFilePathFieldId), data_target);
  EXPECT_EQ(del.data_file.upper_bounds.at(iceberg::kDeleteFilePathFieldId), data_target);
}

TEST_F(TableWriteTest, ATableWithoutSnapshotGetsEmptyMetadata) {
  metadata_.snapshots.clear();
  metadata_.current_snapshot_id.reset();
  metadata_.refs.clear();
  const Layout layout(Path("target"));
  auto plan = PlanTable({{"raw_x"}, "t"}, metadata_, *io_, layout);
  ASSERT_TRUE(plan.has_value()) << plan.error().ToString();
  EXPECT_TRUE(plan->groups.empty());
  auto location = WriteTableMetadata(*plan, {}, {}, *io_, layout, 1);
  ASSERT_TRUE(location.has_value()) << location.error().ToString();
  auto metadata = iceberg::ParseTableMetadata(io_->Read(*location).value_or(""));
  ASSERT_TRUE(metadata.has_value());
  EXPECT_FALSE(metadata->current_snapshot_id.has_value());
}

}  // namespace
}  // namespace databox::publish
