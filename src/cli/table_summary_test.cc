// What the catalog commands say about a table, read from its metadata only.
#include "cli/table_summary.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "cli/table_test_support.h"

namespace databox::cli {
namespace {

using ::testing::HasSubstr;
using testing::MakeSnapshot;

iceberg::TableMetadata Metadata() {
  iceberg::TableMetadata md;
  md.format_version = 2;
  md.location = "file:///lake/raw_usgs/sites";
  md.schemas = {iceberg::Schema(
      0,
      {iceberg::NestedField{1, "site_no", true, iceberg::Type::String(), {}},
       iceberg::NestedField{2, "observed", false, iceberg::Type::TimestampTz(), {}}},
      {1})};
  md.partition_specs = {iceberg::PartitionSpec{
      0, {iceberg::PartitionField{2, 1000, "observed_day", iceberg::Transform::Day()}}}};
  md.properties = {{"write.format.default", "parquet"}};
  md.snapshots.push_back(
      MakeSnapshot(11, 1'000, {{"operation", "append"}, {"databox.load-id", "1796004658.1"}}));
  md.snapshots.push_back(MakeSnapshot(801030709168230257, 1'764'468'658'659,
                                      {{"operation", "overwrite"},
                                       {"total-records", "170"},
                                       {"total-data-files", "2"},
                                       {"total-files-size", "9041"},
                                       {"databox.load-id", "1796004700.5"}}));
  md.current_snapshot_id = 801030709168230257;
  return md;
}

TEST(TableSummaryTest, CountsComeFromTheCurrentSnapshotsSummary) {
  const auto t = SummarizeTable({{"raw_usgs"}, "sites"}, Metadata());
  EXPECT_EQ(t.table, "raw_usgs.sites");
  EXPECT_EQ(t.snapshot_id, 801030709168230257);
  EXPECT_EQ(t.snapshot_time, "2025-11-30T02:10:58.659Z");
  EXPECT_EQ(t.operation, "overwrite");
  EXPECT_EQ(t.records, 170);
  EXPECT_EQ(t.data_files, 2);
  EXPECT_EQ(t.bytes, 9041);
  EXPECT_EQ(t.delete_files, std::nullopt);  // not in the summary: shown as "-"
  EXPECT_EQ(t.load_id, "1796004700.5");
  EXPECT_EQ(t.snapshots, 2);
  const auto json = TableListJson({t});
  EXPECT_EQ(json[0]["snapshot_id"], "801030709168230257");
  EXPECT_EQ(json[0]["records"], 170);
  EXPECT_TRUE(json[0]["delete_files"].is_null());
  EXPECT_EQ(FormatTableList({t}),
            "TABLE           ROWS  FILES  BYTES  SNAPSHOT            SNAPSHOT TIME             "
            "LAST LOAD\n"
            "raw_usgs.sites  170   2      9041   801030709168230257  2025-11-30T02:10:58.659Z  "
            "1796004700.5\n");
}

TEST(TableSummaryTest, ATableWithoutSnapshotsHasNoCounts) {
  iceberg::TableMetadata md = Metadata();
  md.snapshots = {};
  md.current_snapshot_id.reset();
  const auto t = SummarizeTable({{"raw_usgs"}, "sites"}, md);
  EXPECT_EQ(t.snapshot_id, std::nullopt);
  EXPECT_EQ(t.records, std::nullopt);
  EXPECT_THAT(FormatTableList({t}), HasSubstr("raw_usgs.sites  -     -      -      -  "));
}

TEST(TableSummaryTest, DescriptionShowsFormatSpecPropertiesAndSchema) {
  const auto md = Metadata();
  const auto t = SummarizeTable({{"raw_usgs"}, "sites"}, md);
  const std::string text = FormatTableDescription(t, md, "file:///lake/m.json");
  EXPECT_THAT(text, HasSubstr("format version    2\n"));
  EXPECT_THAT(text, HasSubstr("partition spec    observed_day = day(field 2)\n"));
  EXPECT_THAT(text, HasSubstr("snapshot          801030709168230257 (overwrite)\n"));
  EXPECT_THAT(text, HasSubstr("  write.format.default = parquet\n"));
  EXPECT_THAT(text, HasSubstr("\nschema\n  ID  NAME      TYPE\n"));  // no trailing blanks
  EXPECT_THAT(text, HasSubstr("  1   site_no   string       required, key\n"));
  const auto json = TableDescriptionJson(t, md, "file:///lake/m.json");
  EXPECT_EQ(json["format_version"], 2);
  EXPECT_EQ(json["schema"][0]["identifier"], true);
  EXPECT_EQ(json["metadata_location"], "file:///lake/m.json");
}

TEST(TableSummaryTest, MillisPrintAsIsoUtc) {
  EXPECT_EQ(MillisToIso(0), "1970-01-01T00:00:00.000Z");
  EXPECT_EQ(MillisToIso(86'400'123), "1970-01-02T00:00:00.123Z");
}

}  // namespace
}  // namespace databox::cli
