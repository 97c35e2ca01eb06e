// What `databox inspect` prints about a table, from values instead of a loaded table.
#include "cli/table_inspection.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "cli/table_test_support.h"

namespace databox::cli {
namespace {

using ::testing::HasSubstr;
using testing::MakeDataFile;
using testing::MakeSnapshot;

TableInspection Inspection() {
  TableInspection in;
  in.table = "raw_usgs.sites";
  in.metadata_location = "file:///lake/raw_usgs/sites/metadata/00001.metadata.json";
  in.rows = 169;
  iceberg::TableMetadata& md = in.metadata;
  md.format_version = 2;
  md.table_uuid = "0f8fad5b-d9cb-469f-a165-70867728950e";
  md.location = "file:///lake/raw_usgs/sites";
  md.schemas = {iceberg::Schema(
      0,
      {iceberg::NestedField{1, "site_no", true, iceberg::Type::String(), {}},
       iceberg::NestedField{2, "observed", false, iceberg::Type::TimestampTz(), {}}},
      {1})};
  md.partition_specs = {
      iceberg::PartitionSpec{0, {}},
      iceberg::PartitionSpec{
          1, {iceberg::PartitionField{2, 1000, "observed_day", iceberg::Transform::Day()}}}};
  md.default_spec_id = 1;
  md.sort_orders = {iceberg::SortOrder{
      1,
      {iceberg::SortField{1, iceberg::Transform::Identity(), iceberg::SortDirection::kAsc,
                          iceberg::NullOrder::kNullsFirst},
       iceberg::SortField{2, iceberg::Transform::Day(), iceberg::SortDirection::kDesc,
                          iceberg::NullOrder::kNullsLast}}}};
  md.default_sort_order_id = 1;
  md.properties = {{"write.format.default", "parquet"}};
  in.history = {MakeSnapshot(801030709168230257, 1'764'468'658'659,
                             {{"operation", "overwrite"},
                              {"added-data-files", "1"},
                              {"deleted-data-files", "2"},
                              {"added-records", "170"},
                              {"deleted-records", "150"},
                              {"total-records", "170"},
                              {"total-files-size", "9041"},
                              {"databox.load-id", "1796004700.5"}}),
                MakeSnapshot(11, 1'000, {{"operation", "append"}})};
  in.live.data = {MakeDataFile("file:///lake/a.parquet", 100, 5000),
                  MakeDataFile("file:///lake/b.parquet", 70, 4041)};
  in.live.deletes = {MakeDataFile("file:///lake/d.parquet", 1, 700)};
  return in;
}

TEST(TableInspectionTest, TextShowsIdentityLayoutSizesAndSnapshotSummaries) {
  const std::string text = FormatInspection(Inspection());
  EXPECT_THAT(text, HasSubstr("table           raw_usgs.sites\n"));
  EXPECT_THAT(text, HasSubstr("uuid            0f8fad5b-d9cb-469f-a165-70867728950e\n"));
  EXPECT_THAT(text, HasSubstr("format version  2\n"));
  EXPECT_THAT(text, HasSubstr("location        file:///lake/raw_usgs/sites\n"));
  EXPECT_THAT(text, HasSubstr("rows            169\n"));
  EXPECT_THAT(text, HasSubstr("data files      2 (9041 bytes)\n"));
  EXPECT_THAT(text, HasSubstr("delete files    1 (700 bytes, 1 deleted rows)\n"));
  EXPECT_THAT(text, HasSubstr("partition spec  observed_day = day(observed)\n"));
  EXPECT_THAT(
      text, HasSubstr("sort order      site_no asc nulls-first, day(observed) desc nulls-last\n"));
  EXPECT_THAT(text, HasSubstr("\npartition specs\n  0  unpartitioned\n"
                              "  1 (default)  observed_day = day(observed)\n"));
  EXPECT_THAT(text, HasSubstr("\nproperties\n  write.format.default = parquet\n"));
  EXPECT_THAT(text, HasSubstr("  1   site_no   string       required, key\n"));
  EXPECT_THAT(text, HasSubstr("  801030709168230257  2025-11-30T02:10:58.659Z  overwrite  load "
                              "1796004700.5  +170 rows, total 170\n"
                              "      data files +1 -2, rows +170 -150, total 9041 bytes\n"));
  EXPECT_THAT(text, HasSubstr("  11  1970-01-01T00:00:01.000Z  append  load -  +- rows, total -\n"
                              "\nfiles\n"));  // no counters: no second line
  EXPECT_THAT(text, HasSubstr("\nfiles\n  file:///lake/a.parquet  100 rows  5000 bytes\n"));
  EXPECT_THAT(text, HasSubstr("\ndelete files (position deletes)\n  file:///lake/d.parquet  1 "
                              "deleted rows  700 bytes\n"));
}

TEST(TableInspectionTest, JsonCarriesTheSameWithBigIdsAsText) {
  const auto json = InspectionJson(Inspection());
  EXPECT_EQ(json["format_version"], 2);
  EXPECT_EQ(json["table_uuid"], "0f8fad5b-d9cb-469f-a165-70867728950e");
  EXPECT_EQ(json["location"], "file:///lake/raw_usgs/sites");
  EXPECT_EQ(json["rows"], 169);
  EXPECT_EQ(json["sizes"]["data_files"], 2);
  EXPECT_EQ(json["sizes"]["data_bytes"], 9041);
  EXPECT_EQ(json["sizes"]["delete_files"], 1);
  EXPECT_EQ(json["sizes"]["delete_bytes"], 700);
  EXPECT_EQ(json["default_spec_id"], 1);
  ASSERT_EQ(json["partition_specs"].size(), 2u);
  EXPECT_EQ(json["partition_specs"][1]["default"], true);
  EXPECT_EQ(json["partition_specs"][1]["fields"][0]["source_column"], "observed");
  EXPECT_EQ(json["partition_specs"][1]["fields"][0]["transform"], "day");
  EXPECT_EQ(json["sort_order"]["order_id"], 1);
  EXPECT_EQ(json["sort_order"]["fields"][1]["direction"], "desc");
  EXPECT_EQ(json["sort_order"]["fields"][1]["null_order"], "nulls-last");
  EXPECT_EQ(json["properties"]["write.format.default"], "parquet");
  EXPECT_EQ(json["schema"][0]["identifier"], true);
  const auto& newest = json["snapshots"][0];
  EXPECT_EQ(newest["snapshot_id"], "801030709168230257");  // beyond 2^53
  EXPECT_EQ(newest["timestamp_ms"], 1'764'468'658'659);
  EXPECT_EQ(newest["time"], "2025-11-30T02:10:58.659Z");
  EXPECT_EQ(newest["summary"]["deleted-records"], "150");
  EXPECT_EQ(json["snapshots"][1]["snapshot_id"], 11);
  EXPECT_EQ(json["files"][1]["bytes"], 4041);
  EXPECT_EQ(json["delete_files"][0]["positions"], 1);
}

TEST(TableInspectionTest, AnUnpartitionedUnsortedTableSaysSo) {
  TableInspection in = Inspection();
  in.metadata.partition_specs = {iceberg::PartitionSpec{0, {}}};
  in.metadata.default_spec_id = 0;
  in.metadata.sort_orders = {iceberg::SortOrder::Unsorted()};
  in.metadata.default_sort_order_id = 0;
  in.metadata.properties = {};
  const std::string text = FormatInspection(in);
  EXPECT_THAT(text, HasSubstr("partition spec  unpartitioned\n"));
  EXPECT_THAT(text, HasSubstr("sort order      unsorted\n"));
  EXPECT_THAT(text, HasSubstr("\nproperties\n  (none)\n"));
  EXPECT_EQ(text.find("partition specs"), std::string::npos);
}

}  // namespace
}  // namespace databox::cli
