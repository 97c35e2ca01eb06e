#include "iceberg/metadata/table_update.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "iceberg/metadata/table_requirement.h"

namespace databox::iceberg {
namespace {

using nlohmann::json;

Schema TwoColumns() {
  return Schema(0, {NestedField{1, "id", true, Type::Long(), {}},
                    NestedField{2, "v", false, Type::String(), {}}});
}

TableMetadata Created() {
  auto md = NewTableMetadata(TwoColumns(), PartitionSpec::Unpartitioned(), SortOrder::Unsorted(),
                             "file:///w/t", {});
  EXPECT_TRUE(md) << md.error().ToString();
  return *md;
}

Snapshot MakeSnapshot(int64_t id, std::optional<int64_t> parent, int64_t seq, int64_t ts) {
  return Snapshot{id,
                  parent,
                  seq,
                  ts,
                  "file:///w/t/metadata/snap-" + std::to_string(id) + ".avro",
                  {{"operation", "append"}},
                  0};
}

TEST(TableUpdateJsonTest, SpellsActionsAsTheRestSpec) {
  EXPECT_EQ(
      TableUpdateToJson(SetSnapshotRef{"main", SnapshotRef::Branch(5)}),
      json::parse(
          R"({"action":"set-snapshot-ref","ref-name":"main","type":"branch","snapshot-id":5})"));
  EXPECT_EQ(TableUpdateToJson(SetCurrentSchema{kLastAdded}),
            json::parse(R"({"action":"set-current-schema","schema-id":-1})"));
  EXPECT_EQ(TableUpdateToJson(RemoveProperties{{"a"}}),
            json::parse(R"({"action":"remove-properties","removals":["a"]})"));
  EXPECT_EQ(TableUpdateToJson(SetProperties{{{"a", "1"}}}),
            json::parse(R"({"action":"set-properties","updates":{"a":"1"}})"));
  EXPECT_EQ(TableUpdateToJson(AddSchema{TwoColumns(), 2})["last-column-id"], 2);
  EXPECT_EQ(TableUpdateToJson(SetDefaultSortOrder{0}),
            json::parse(R"({"action":"set-default-sort-order","sort-order-id":0})"));
  EXPECT_EQ(TableUpdateToJson(RemoveSnapshots{{1, 2}}),
            json::parse(R"({"action":"remove-snapshots","snapshot-ids":[1,2]})"));

  const std::vector<TableUpdate> all = {
      AssignUuid{"u"},
      UpgradeFormatVersion{2},
      AddSchema{TwoColumns(), 2},
      SetCurrentSchema{0},
      AddPartitionSpec{PartitionSpec{0, {PartitionField{1, 1000, "b", Transform::Bucket(4)}}}},
      SetDefaultSpec{0},
      AddSortOrder{SortOrder::Unsorted()},
      SetDefaultSortOrder{0},
      AddSnapshot{MakeSnapshot(9, 8, 3, 1000)},
      SetSnapshotRef{"dev", SnapshotRef{9, SnapshotRefType::kBranch, 1, 2, 3}},
      RemoveSnapshots{{4}},
      RemoveSnapshotRef{"dev"},
      SetLocation{"s3://b/t"},
      SetProperties{{{"k", "v"}}},
      RemoveProperties{{"k"}}};
  for (const auto& u : all) {
    auto back = TableUpdateFromJson(TableUpdateToJson(u));
    ASSERT_TRUE(back) << TableUpdateToJson(u).dump() << ": " << back.error().ToString();
    EXPECT_EQ(*back, u) << TableUpdateToJson(u).dump();
  }
  EXPECT_FALSE(TableUpdateFromJson(json::parse(R"({"action":"explode"})")));
}

TEST(TableRequirementJsonTest, SpellsTypesAsTheRestSpec) {
  EXPECT_EQ(TableRequirementToJson(AssertRefSnapshotId{"main", std::nullopt}),
            json::parse(R"({"type":"assert-ref-snapshot-id","ref":"main","snapshot-id":null})"));
  EXPECT_EQ(
      TableRequirementToJson(AssertLastAssignedPartitionId{1000}),
      json::parse(
          R"({"type":"assert-last-assigned-partition-id","last-assigned-partition-id":1000})"));
  const std::vector<TableRequirement> all = {AssertCreate{},
                                             AssertTableUuid{"u"},
                                             AssertRefSnapshotId{"main", 3},
                                             AssertRefSnapshotId{"b", std::nullopt},
                                             AssertLastAssignedFieldId{4},
                                             AssertCurrentSchemaId{1},
                                             AssertLastAssignedPartitionId{1000},
                                             AssertDefaultSpecId{0},
                                             AssertDefaultSortOrderId{0}};
  for (const auto& r : all) {
    auto back = TableRequirementFromJson(TableRequirementToJson(r));
    ASSERT_TRUE(back) << back.error().ToString();
    EXPECT_EQ(*back, r) << TableRequirementToJson(r).dump();
  }
}

TEST(CheckRequirementsTest, ReportsWhichRequirementFailed) {
  const TableMetadata md = Created();
  EXPECT_TRUE(CheckRequirements(nullptr, std::vector<TableRequirement>{AssertCreate{}}));
  auto exists = CheckRequirements(&md, std::vector<TableRequirement>{AssertCreate{}});
  ASSERT_FALSE(exists);
  EXPECT_EQ(exists.error().kind, ErrorKind::kConflict);
  EXPECT_NE(exists.error().message.find("assert-create"), std::string::npos);

  EXPECT_TRUE(CheckRequirements(
      &md, std::vector<TableRequirement>{AssertTableUuid{md.table_uuid},
                                         AssertRefSnapshotId{"main", std::nullopt},
                                         AssertLastAssignedFieldId{2}, AssertCurrentSchemaId{0},
                                         AssertLastAssignedPartitionId{999}, AssertDefaultSpecId{0},
                                         AssertDefaultSortOrderId{0}}));

  auto stale =
      CheckRequirements(&md, std::vector<TableRequirement>{AssertRefSnapshotId{"main", 77}});
  ASSERT_FALSE(stale);
  EXPECT_EQ(stale.error().kind, ErrorKind::kConflict);
  EXPECT_NE(stale.error().message.find("assert-ref-snapshot-id"), std::string::npos)
      << stale.error().message;
  EXPECT_NE(stale.error().message.find("77"), std::string::npos);

  auto wrong_uuid = CheckRequirements(&md, std::vector<TableRequirement>{AssertTableUuid{"other"}});
  ASSERT_FALSE(wrong_uuid);
  EXPECT_NE(wrong_uuid.error().message.find("assert-table-uuid"), std::string::npos);
  EXPECT_FALSE(CheckRequirements(&md, std::vector<TableRequirement>{AssertLastAssignedFieldId{3}}));
  EXPECT_FALSE(CheckRequirements(&md, std::vector<TableRequirement>{AssertCurrentSchemaId{1}}));
  EXPECT_FALSE(CheckRequirements(&md, std::vector<TableRequirement>{AssertDefaultSpecId{1}}));
  EXPECT_FALSE(CheckRequirements(&md, std::vector<TableRequirement>{AssertDefaultSortOrderId{1}}));
  EXPECT_FALSE(
      CheckRequirements(&md, std::vector<TableRequirement>{AssertLastAssignedPartitionId{1000}}));
  auto missing = CheckRequirements(nullptr, std::vector<TableRequirement>{AssertTableUuid{"u"}});
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().kind, ErrorKind::kConflict);
}

TEST(ApplyUpdatesTest, CreateFromRestStyleUpdates) {
  const TableMetadata planned = Created();
  auto md = ApplyUpdates(nullptr, CreateTableUpdates(planned), 5000);
  ASSERT_TRUE(md) << md.error().ToString();
  EXPECT_EQ(md->table_uuid, planned.table_uuid);
  EXPECT_EQ(md->schemas, planned.schemas);
  EXPECT_EQ(md->current_schema_id, 0);
  EXPECT_EQ(md->last_column_id, 2);
  EXPECT_EQ(md->DefaultSpec()->fields.size(), 0u);
  EXPECT_EQ(md->last_partition_id, 999);
  EXPECT_EQ(md->last_updated_ms, 5000);
  EXPECT_FALSE(md->current_snapshot_id);

  auto no_schema = ApplyUpdates(nullptr, std::vector<TableUpdate>{SetLocation{"x"}}, 1);
  ASSERT_FALSE(no_schema);
  EXPECT_EQ(no_schema.error().kind, ErrorKind::kData);
}

TEST(ApplyUpdatesTest, AppendsMoveMainAndRecordHistory) {
  const TableMetadata base = Created();
  const Snapshot s1 = MakeSnapshot(101, std::nullopt, base.NextSequenceNumber(), 2000);
  auto v1 = ApplyUpdates(
      &base,
      std::vector<TableUpdate>{AddSnapshot{s1}, SetSnapshotRef{"main", SnapshotRef::Branch(101)}},
      1500);
  ASSERT_TRUE(v1) << v1.error().ToString();
  EXPECT_EQ(v1->current_snapshot_id, 101);
  EXPECT_EQ(v1->last_sequence_number, 1);
  EXPECT_EQ(v1->last_updated_ms, 2000);  // the snapshot's timestamp is later than now
  ASSERT_EQ(v1->snapshot_log.size(), 1u);
  EXPECT_EQ(v1->snapshot_log[0], (SnapshotLogEntry{101, 2000}));

  // A second writer's snapshot with a stale sequence number is rejected.
  auto stale = ApplyUpdates(
      &*v1, std::vector<TableUpdate>{AddSnapshot{MakeSnapshot(102, 101, 1, 3000)}}, 3000);
  ASSERT_FALSE(stale);
  EXPECT_EQ(stale.error().kind, ErrorKind::kData);
  // Duplicate ids and refs to unknown snapshots are rejected.
  EXPECT_FALSE(ApplyUpdates(
      &*v1, std::vector<TableUpdate>{AddSnapshot{MakeSnapshot(101, 101, 2, 3000)}}, 3000));
  EXPECT_FALSE(ApplyUpdates(
      &*v1, std::vector<TableUpdate>{SetSnapshotRef{"main", SnapshotRef::Branch(555)}}, 3000));

  const Snapshot s2 = MakeSnapshot(102, 101, v1->NextSequenceNumber(), 3000);
  auto v2 = ApplyUpdates(
      &*v1,
      std::vector<TableUpdate>{AddSnapshot{s2}, SetSnapshotRef{"main", SnapshotRef::Branch(102)},
                               SetSnapshotRef{"audit", SnapshotRef::Tag(101)}},
      2500);
  ASSERT_TRUE(v2);
  EXPECT_EQ(v2->CurrentSnapshot()->parent_snapshot_id, 101);
  EXPECT_EQ(v2->last_sequence_number, 2);
  EXPECT_EQ(v2->snapshot_log.size(), 2u);
  EXPECT_EQ(v2->SnapshotForRef("audit")->snapshot_id, 101);

  // A branch write does not touch main or the snapshot log.
  auto branch =
      ApplyUpdates(&*v2,
                   std::vector<TableUpdate>{AddSnapshot{MakeSnapshot(103, 102, 3, 4000)},
                                            SetSnapshotRef{"dev", SnapshotRef::Branch(103)}},
                   4000);
  ASSERT_TRUE(branch);
  EXPECT_EQ(branch->current_snapshot_id, 102);
  EXPECT_EQ(branch->snapshot_log.size(), 2u);

  // Expiring 101 drops the tag on it and the log history up to it.
  auto expired = ApplyUpdates(&*branch, std::vector<TableUpdate>{RemoveSnapshots{{101}}}, 5000);
  ASSERT_TRUE(expired) << expired.error().ToString();
  EXPECT_EQ(expired->SnapshotById(101), nullptr);
  EXPECT_EQ(expired->RefByName("audit"), nullptr);
  ASSERT_EQ(expired->snapshot_log.size(), 1u);
  EXPECT_EQ(expired->snapshot_log[0].snapshot_id, 102);

  auto unref = ApplyUpdates(&*expired, std::vector<TableUpdate>{RemoveSnapshotRef{"main"}}, 6000);
  ASSERT_TRUE(unref);
  EXPECT_FALSE(unref->current_snapshot_id);
  EXPECT_EQ(unref->last_updated_ms, 6000);
}

TEST(ApplyUpdatesTest, SchemaSpecAndOrderIdsAreAssignedOrReused) {
  const TableMetadata base = Created();
  Schema wider(7, {NestedField{1, "id", true, Type::Long(), {}},
                   NestedField{2, "v", false, Type::String(), {}},
                   NestedField{3, "w", false, Type::Double(), {}}});
  auto md = ApplyUpdates(
      &base,
      std::vector<TableUpdate>{
          AddSchema{wider, 3}, SetCurrentSchema{kLastAdded},
          AddPartitionSpec{
              PartitionSpec{9, {PartitionField{1, 1000, "id_b", Transform::Bucket(8)}}}},
          SetDefaultSpec{kLastAdded},
          AddSortOrder{SortOrder{
              5,
              {SortField{3, Transform::Identity(), SortDirection::kAsc, NullOrder::kNullsFirst}}}},
          SetDefaultSortOrder{kLastAdded}},
      7000);
  ASSERT_TRUE(md) << md.error().ToString();
  EXPECT_EQ(md->current_schema_id, 1);  // server-assigned, not the requested 7
  EXPECT_EQ(md->last_column_id, 3);
  EXPECT_EQ(md->default_spec_id, 1);
  EXPECT_EQ(md->last_partition_id, 1000);
  EXPECT_EQ(md->default_sort_order_id, 1);

  // Re-adding the original schema reuses id 0.
  auto back = ApplyUpdates(
      &*md,
      std::vector<TableUpdate>{AddSchema{TwoColumns(), std::nullopt}, SetCurrentSchema{kLastAdded}},
      8000);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->current_schema_id, 0);
  EXPECT_EQ(back->schemas.size(), 2u);
  EXPECT_EQ(back->last_column_id, 3);  // never decreases

  EXPECT_FALSE(ApplyUpdates(&base, std::vector<TableUpdate>{SetCurrentSchema{kLastAdded}}, 1));
  EXPECT_FALSE(ApplyUpdates(&base, std::vector<TableUpdate>{SetDefaultSpec{4}}, 1));
  EXPECT_FALSE(ApplyUpdates(&base,
                            std::vector<TableUpdate>{AddPartitionSpec{PartitionSpec{
                                0, {PartitionField{2, 1000, "h", Transform::Hour()}}}}},
                            1));
  EXPECT_FALSE(ApplyUpdates(&base, std::vector<TableUpdate>{AssignUuid{"another"}}, 1));
  EXPECT_FALSE(ApplyUpdates(&base, std::vector<TableUpdate>{UpgradeFormatVersion{1}}, 1));
  auto props =
      ApplyUpdates(&base,
                   std::vector<TableUpdate>{SetProperties{{{"a", "1"}, {"b", "2"}}},
                                            RemoveProperties{{"a"}}, SetLocation{"s3://b/t2"}},
                   1);
  ASSERT_TRUE(props);
  EXPECT_EQ(props->properties, (std::map<std::string, std::string>{{"b", "2"}}));
  EXPECT_EQ(props->location, "s3://b/t2");
}

TEST(NewTableMetadataTest, AssignsFreshIdsAndRemapsReferences) {
  Schema schema(
      4,
      {NestedField{10, "a", true, Type::Long(), {}},
       NestedField{
           20, "s", false, Type::Struct({NestedField{30, "x", false, Type::Timestamp(), {}}}), {}},
       NestedField{40, "b", false, Type::Int(), {}}},
      {10});
  PartitionSpec spec{3,
                     {PartitionField{30, 5000, "x_day", Transform::Day()},
                      PartitionField{40, 7, "b", Transform::Identity()}}};
  SortOrder order{
      0, {SortField{40, Transform::Identity(), SortDirection::kDesc, NullOrder::kNullsLast}}};
  auto md = NewTableMetadata(schema, spec, order, "s3://bucket/ns/t/", {{"p", "q"}});
  ASSERT_TRUE(md) << md.error().ToString();
  const Schema& s = *md->CurrentSchema();
  EXPECT_EQ(s.schema_id(), 0);
  EXPECT_EQ(s.FindFieldByName("a")->id, 1);
  EXPECT_EQ(s.FindFieldByName("s")->id, 2);
  EXPECT_EQ(s.FindFieldByName("b")->id, 3);
  EXPECT_EQ(s.FindFieldByName("s.x")->id, 4);
  EXPECT_EQ(s.identifier_field_ids(), std::vector<int32_t>{1});
  EXPECT_EQ(md->last_column_id, 4);
  const PartitionSpec& p = *md->DefaultSpec();
  EXPECT_EQ(p.spec_id, 0);
  EXPECT_EQ(p.fields[0], (PartitionField{4, 1000, "x_day", Transform::Day()}));
  EXPECT_EQ(p.fields[1], (PartitionField{3, 1001, "b", Transform::Identity()}));
  EXPECT_EQ(md->last_partition_id, 1001);
  EXPECT_EQ(md->default_sort_order_id, 1);
  EXPECT_EQ(md->DefaultSortOrder()->fields[0].source_id, 3);
  EXPECT_EQ(md->location, "s3://bucket/ns/t");
  EXPECT_EQ(md->table_uuid.size(), 36u);
  EXPECT_NE(md->table_uuid, Created().table_uuid);

  PartitionSpec dangling{0, {PartitionField{99, 1000, "nope", Transform::Identity()}}};
  auto bad = NewTableMetadata(schema, dangling, SortOrder::Unsorted(), "s3://b/t", {});
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().kind, ErrorKind::kData);
}

TEST(MetadataLogTest, AppendsPreviousFileAndTrims) {
  TableMetadata md = Created();
  md.properties[kPreviousVersionsMaxProperty] = "2";
  ASSERT_TRUE(AppendMetadataLog(md, "m0.json", 1));
  ASSERT_TRUE(AppendMetadataLog(md, "m1.json", 2));
  ASSERT_TRUE(AppendMetadataLog(md, "m2.json", 3));
  ASSERT_EQ(md.metadata_log.size(), 2u);
  EXPECT_EQ(md.metadata_log[0], (MetadataLogEntry{"m1.json", 2}));
  EXPECT_EQ(md.metadata_log[1], (MetadataLogEntry{"m2.json", 3}));
}

TEST(MetadataLogTest, ZeroKeepsThePreviousFileAsIcebergJavaDoes) {
  TableMetadata md = Created();
  md.properties[kPreviousVersionsMaxProperty] = "0";
  ASSERT_TRUE(AppendMetadataLog(md, "m0.json", 1));
  ASSERT_TRUE(AppendMetadataLog(md, "m1.json", 2));
  ASSERT_EQ(md.metadata_log.size(), 1u);
  EXPECT_EQ(md.metadata_log[0], (MetadataLogEntry{"m1.json", 2}));
}

TEST(MetadataLogTest, AValueThatIsNotANumberIsAnErrorNotTheDefault) {
  TableMetadata md = Created();
  md.properties[kPreviousVersionsMaxProperty] = "ten";
  auto appended = AppendMetadataLog(md, "m0.json", 1);
  ASSERT_FALSE(appended);
  EXPECT_EQ(appended.error().kind, ErrorKind::kConfig);
  EXPECT_EQ(appended.error().message,
            "table at " + md.location +
                " has write.metadata.previous-versions-max = 'ten': not a whole number >= 0; "
                "fix or remove the table property");
  EXPECT_TRUE(md.metadata_log.empty());
}

TEST(TableMetadataTest, NewSnapshotIdsArePositiveAndUnused) {
  TableMetadata md = Created();
  for (int i = 0; i < 100; ++i) {
    const int64_t id = md.NewSnapshotId();
    EXPECT_GT(id, 0);
    EXPECT_EQ(md.SnapshotById(id), nullptr);
    md.snapshots.push_back(MakeSnapshot(id, std::nullopt, 0, 0));
  }
}

}  // namespace
}  // namespace databox::iceberg
