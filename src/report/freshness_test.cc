// Freshness from the run history: last ok load, age, stale past the limit, explicit on demand.
#include "report/freshness.h"

#include <gtest/gtest.h>

#include "common/clock.h"

namespace databox::report {
namespace {

registry::Source MakeSource(std::string name, registry::Eligibility eligibility) {
  registry::Source source;
  source.name = std::move(name);
  source.eligibility = eligibility;
  registry::Resource on, off;
  on.name = "a";
  off.name = "b";
  off.enabled = false;
  source.resources = {on, off};
  return source;
}

refresh::RunRecord Record(std::string finished_at, std::string source,
                          refresh::SourceStatus status) {
  refresh::RunRecord record;
  record.finished_at = std::move(finished_at);
  refresh::SourceRun run;
  run.source = std::move(source);
  run.status = status;
  run.rows = 7;
  run.error = status == refresh::SourceStatus::kFailed ? "HTTP 500" : "";
  record.sources.push_back(run);
  return record;
}

TEST(FreshnessTest, AgeAgainstTheLimitAndFailuresSinceTheLastOkLoad) {
  registry::Registry registry;
  registry.sources = {MakeSource("fresh", registry::Eligibility::kRoutine),
                      MakeSource("old", registry::Eligibility::kRoutine),
                      MakeSource("never", registry::Eligibility::kRoutine),
                      MakeSource("manual", registry::Eligibility::kExplicit)};
  const std::vector<refresh::RunRecord> records = {
      Record("2026-11-28T00:00:00.000Z", "old", refresh::SourceStatus::kOk),
      Record("2026-11-28T00:00:00.000Z", "fresh", refresh::SourceStatus::kFailed),
      Record("2026-11-30T00:00:00.000Z", "fresh", refresh::SourceStatus::kOk),
      Record("2026-11-30T01:00:00.000Z", "old", refresh::SourceStatus::kFailed),
      Record("2026-11-30T01:00:00.000Z", "never", refresh::SourceStatus::kFailed),
  };
  const int64_t now = *IsoToMillis("2026-11-30T02:00:00.000Z");
  const auto states = SourceStates(registry, records, now, 26 * 3600);
  ASSERT_EQ(states.size(), 4u);

  EXPECT_EQ(states[0].freshness, Freshness::kFresh);
  EXPECT_EQ(states[0].age_seconds, 2 * 3600);
  EXPECT_EQ(states[0].last_ok_at, "2026-11-30T00:00:00.000Z");
  EXPECT_EQ(states[0].last_ok_rows, 7);
  EXPECT_EQ(states[0].last_failure_at, "") << "a failure before the last ok load is old news";
  ASSERT_EQ(states[0].resources.size(), 2u);
  EXPECT_FALSE(states[0].resources[1].enabled);

  EXPECT_EQ(states[1].freshness, Freshness::kStale);
  EXPECT_EQ(states[1].age_seconds, 50 * 3600);
  EXPECT_EQ(states[1].last_failure_error, "HTTP 500");

  EXPECT_EQ(states[2].freshness, Freshness::kNever);
  EXPECT_EQ(states[2].age_seconds, std::nullopt);

  EXPECT_EQ(states[3].freshness, Freshness::kOnDemand);
  EXPECT_FALSE(states[3].routine);
}

TEST(FreshnessTest, EachSourceIsAsFreshAsItsOwnLoadNotTheRun) {
  registry::Registry registry;
  registry.sources = {MakeSource("quick", registry::Eligibility::kRoutine),
                      MakeSource("slow", registry::Eligibility::kRoutine)};
  refresh::RunRecord record =
      Record("2026-11-30T01:00:00.000Z", "quick", refresh::SourceStatus::kOk);
  record.sources[0].started_at = "2026-11-30T00:00:00.000Z";
  record.sources[0].seconds = 2;
  record.sources.push_back(record.sources[0]);
  record.sources[1].source = "slow";
  record.sources[1].seconds = 3600;
  const int64_t now = *IsoToMillis("2026-11-30T02:00:00.000Z");
  const auto states = SourceStates(registry, {record}, now, 26 * 3600);
  EXPECT_EQ(states[0].last_ok_at, "2026-11-30T00:00:02.000Z");
  EXPECT_EQ(states[0].age_seconds, 2 * 3600 - 2);
  EXPECT_EQ(states[1].last_ok_at, "2026-11-30T01:00:00.000Z");
}

}  // namespace
}  // namespace databox::report
