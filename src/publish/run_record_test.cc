#include "publish/run_record.h"

#include <gtest/gtest.h>

namespace databox::publish {
namespace {

Outcome TwoRelations() {
  Outcome outcome;
  outcome.version = 4;
  RelationOutcome table;
  table.name = "raw_x.t";
  table.rows = 3;
  table.snapshot_id = 42;
  RelationOutcome model;
  model.name = "analytics.m";
  model.kind = RelationKind::kDuckDbTable;
  outcome.relations = {table, model};
  return outcome;
}

TEST(PublishRecordTest, AReadBackDifferenceFailsItsRelationInInspection) {
  Outcome outcome = TwoRelations();
  outcome.problems = {"raw_x.t: 2 rows read back, the manifest says 3"};
  outcome.error = "version 4 did not read back as its manifest says; the pointer was not moved";
  const refresh::RunRecord record =
      PublishRecord(outcome, "/srv/pub", "2026-12-04T19:00:00.000Z", ExitCode::kRunFailed);
  EXPECT_EQ(record.command, "publish");
  EXPECT_FALSE(record.inspection_ok);
  EXPECT_EQ(record.inspection_problems, outcome.problems);
  ASSERT_EQ(record.sources.size(), 2u);
  EXPECT_EQ(record.sources[0].status, refresh::SourceStatus::kFailed);
  EXPECT_EQ(record.sources[0].phase, load::Phase::kInspection);
  EXPECT_EQ(record.sources[0].error, outcome.problems[0]);
  EXPECT_EQ(record.sources[0].snapshots.at("raw_x.t"), 42);
  EXPECT_EQ(record.sources[1].status, refresh::SourceStatus::kFailed);
  EXPECT_EQ(record.sources[1].phase, load::Phase::kLoad);
  EXPECT_NE(record.sources[1].error.find("version 4 was not published"), std::string::npos);
  // The record survives its own JSON form (the run history's reader checks every word).
  auto back = refresh::RunRecord::FromJson(record.ToJson());
  ASSERT_TRUE(back.has_value()) << back.error().ToString();
  EXPECT_EQ(back->command, "publish");
}

TEST(PublishRecordTest, ACurrentVersionIsOkAndSaysWhereItWent) {
  Outcome outcome = TwoRelations();
  outcome.current = true;
  outcome.copied.files_copied = 5;
  const refresh::RunRecord record =
      PublishRecord(outcome, "s3://b/pub", "2026-12-04T19:00:00.000Z", ExitCode::kOk);
  EXPECT_TRUE(record.inspection_ok);
  for (const auto& source : record.sources) EXPECT_EQ(source.status, refresh::SourceStatus::kOk);
  ASSERT_FALSE(record.sources[0].notes.empty());
  EXPECT_EQ(record.sources[0].notes[0], "version 4 at s3://b/pub (current)");
  EXPECT_NE(record.sources[0].notes[1].find("copied 5 files"), std::string::npos);
}

}  // namespace
}  // namespace databox::publish
