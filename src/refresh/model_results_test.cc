#include "refresh/model_results.h"

#include <gtest/gtest.h>

namespace databox::refresh {
namespace {

// `sqlmesh plan prod` (0.236) with COLUMNS=240: analytics.c built, analytics.b failed at run
// time, analytics.d (reads b) skipped.
constexpr const char* kFailedRun = R"(**Models needing backfill:**
* `analytics.b`: [full refresh]
* `analytics.d`: [full refresh]
[1/1] analytics.c   [full refresh, audits passed 1]                             0.01s   
Executing model batches ━━━━━━━━━━━━━━━━━━━━                     50.0% • 1/2 • 0:00:00

**Skipped models**
* `"db"."analytics"."d"`

**Failed models**
* `"db"."analytics"."b"`

  ```
    InvalidInputException:
      Invalid Input Error: boom from b
  
  ```

Error: Plan application failed.
)";

// An audit that failed: the model is failed, its audits say so.
constexpr const char* kFailedAudit = R"(**Failed models**
* `"db"."analytics"."c"`

  ```
    'accepted_range' audit error: 2 rows failed
      Audit query
        SELECT * FROM "db"."sqlmesh__analytics"."analytics__c__851336347" WHERE "x" < 5
  ```

Error: Plan application failed.
)";

TEST(ModelResults, ParsesBuiltFailedAndSkippedModelsWithTheFailedModelsError) {
  const auto models = ParseSqlMeshOutput(kFailedRun);
  ASSERT_EQ(models.size(), 3u);
  EXPECT_EQ(models.at("analytics.c").status, ModelStatus::kOk);
  EXPECT_EQ(models.at("analytics.c").audits, "passed 1");
  EXPECT_EQ(models.at("analytics.d").status, ModelStatus::kSkipped);
  const ModelResult& b = models.at("analytics.b");
  EXPECT_EQ(b.status, ModelStatus::kFailed);
  EXPECT_EQ(b.error, "InvalidInputException:\nInvalid Input Error: boom from b");
  EXPECT_EQ(b.audits, "");
}

TEST(ModelResults, AFailedAuditFailsTheModelAndNamesTheAudit) {
  const auto models = ParseSqlMeshOutput(kFailedAudit);
  ASSERT_EQ(models.size(), 1u);
  const ModelResult& c = models.at("analytics.c");
  EXPECT_EQ(c.status, ModelStatus::kFailed);
  EXPECT_EQ(c.audits, "failed: 'accepted_range' audit error: 2 rows failed");
  EXPECT_TRUE(c.error.starts_with("'accepted_range' audit error")) << c.error;
}

TEST(ModelResults, ModelNamesLoseQuotesAndTheCatalog) {
  EXPECT_EQ(ModelNameOf("\"db\".\"analytics\".\"b\""), "analytics.b");
  EXPECT_EQ(ModelNameOf("`analytics.b`"), "analytics.b");
  EXPECT_EQ(ModelNameOf("analytics.b"), "analytics.b");
}

TEST(ModelResults, MergeAddsBuildsAndJudgesUnnamedModelsByTheTransform) {
  const auto printed = ParseSqlMeshOutput(kFailedRun);
  const std::map<std::string, ModelBuild> builds = {
      {"analytics.a", {"2026-12-04T10:00:00.000Z", 2}},
      {"analytics.c", {"2026-12-04T10:00:01.000Z", 2}}};
  auto merged = MergeModelResults(printed, builds, /*transform_ok=*/false);
  ASSERT_EQ(merged.size(), 4u);
  EXPECT_EQ(merged[0].name, "analytics.a");
  EXPECT_EQ(merged[0].status, ModelStatus::kNotRun);
  EXPECT_EQ(merged[0].rows, 2);
  EXPECT_EQ(merged[1].name, "analytics.b");
  EXPECT_EQ(merged[1].status, ModelStatus::kFailed);
  EXPECT_EQ(merged[1].rows, std::nullopt);
  EXPECT_EQ(merged[2].built_at, "2026-12-04T10:00:01.000Z");
  EXPECT_EQ(merged[2].audits, "passed 1");

  merged = MergeModelResults({}, builds, /*transform_ok=*/true);
  EXPECT_EQ(merged[0].status, ModelStatus::kOk);
}

TEST(ModelResults, JsonRoundTrip) {
  ModelResult model{"analytics.b", ModelStatus::kFailed, "", std::nullopt, "", "boom"};
  auto back = ModelResult::FromJson(model.ToJson());
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(back->name, "analytics.b");
  EXPECT_EQ(back->status, ModelStatus::kFailed);
  EXPECT_EQ(back->rows, std::nullopt);
  EXPECT_EQ(back->error, "boom");
  model.rows = 7;
  EXPECT_EQ(ModelResult::FromJson(model.ToJson())->rows, 7);
  EXPECT_FALSE(ParseModelStatus("broken"));
}

}  // namespace
}  // namespace databox::refresh
