// Model health from the run history: the newest transform that named a model says its status.
#include "report/model_health.h"

#include <gtest/gtest.h>

#include "report/freshness.h"

namespace databox::report {
namespace {

refresh::RunRecord Transform(std::string id, std::vector<refresh::ModelResult> models) {
  refresh::RunRecord record;
  record.run_id = std::move(id);
  record.command = "transform";
  record.transform_models = std::move(models);
  return record;
}

TEST(ModelHealthTest, TheNewestTransformSaysAndTheNewestBuildIsKept) {
  const std::vector<ModelReads> scanned = {{"analytics.a", "a.sql", {}, {}},
                                           {"analytics.b", "b.sql", {}, {}},
                                           {"analytics.new", "new.sql", {}, {}}};
  const std::vector<refresh::RunRecord> records = {
      Transform("r1", {{"analytics.a", refresh::ModelStatus::kOk, "2026-12-01T00:00:00.000Z", 4,
                        "passed 1", ""},
                       {"analytics.b", refresh::ModelStatus::kOk, "2026-12-01T00:00:00.000Z", 2, "",
                        ""}}),
      Transform("r2",
                {{"analytics.b", refresh::ModelStatus::kFailed, "", std::nullopt, "", "boom"}})};
  const auto health = ModelHealthOf(scanned, records);
  ASSERT_EQ(health.size(), 3u);
  EXPECT_EQ(health[0].model, "analytics.b") << "failed models come first";
  EXPECT_EQ(health[0].status, "failed");
  EXPECT_EQ(health[0].error, "boom");
  EXPECT_EQ(health[0].run_id, "r2");
  EXPECT_EQ(health[0].built_at, "2026-12-01T00:00:00.000Z") << "its last successful build";
  EXPECT_EQ(health[0].rows, 2);
  EXPECT_EQ(health[1].model, "analytics.a");
  EXPECT_EQ(health[1].status, "ok");
  EXPECT_EQ(health[1].audits, "passed 1");
  EXPECT_EQ(health[2].status, "unknown");
  EXPECT_EQ(ModelStatusOf(health, "analytics.b"), "failed");
  EXPECT_EQ(ModelStatusOf(health, "analytics.none"), "unknown");
}

TEST(ModelHealthTest, IngestedTablesAreAsFreshAsTheirNewestLoad) {
  refresh::RunRecord ingest;
  ingest.command = "ingest";
  ingest.finished_at = "2026-12-01T00:10:00.000Z";
  refresh::SourceRun run;
  run.source = "csv";
  run.status = refresh::SourceStatus::kOk;
  run.started_at = "2026-12-01T00:00:00.000Z";
  run.seconds = 3;
  run.snapshots = {{"raw_csv.t", 1}};
  ingest.sources.push_back(run);
  refresh::RunRecord failed = ingest;
  failed.sources[0].status = refresh::SourceStatus::kFailed;
  failed.sources[0].started_at = "2026-12-02T00:00:00.000Z";
  const auto times = TableLoadTimes({ingest, failed});
  ASSERT_EQ(times.size(), 1u);
  EXPECT_EQ(times.at("raw_csv.t"), "2026-12-01T00:00:03.000Z");
}

}  // namespace
}  // namespace databox::report
