// The run list and trace read from run records: durations, outcomes, counts, lookups by id.
#include "cli/run_list.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace databox::cli {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

refresh::SourceRun ListedSource(std::string name, refresh::SourceStatus status) {
  refresh::SourceRun run;
  run.source = std::move(name);
  run.status = status;
  return run;
}

refresh::RunRecord Record(std::string id, std::string start, std::string end, ExitCode code) {
  refresh::RunRecord record;
  record.run_id = std::move(id);
  record.command = "refresh";
  record.started_at = std::move(start);
  record.finished_at = std::move(end);
  record.exit_code = code;
  return record;
}

TEST(RunListTest, DurationsReadAsPeopleSayThem) {
  EXPECT_EQ(FormatDuration(420), "0.4 s");
  EXPECT_EQ(FormatDuration(12'300), "12 s");
  EXPECT_EQ(FormatDuration(185'000), "3 m 05 s");
  EXPECT_EQ(FormatDuration(7'260'000), "2 h 01 m");
}

TEST(RunListTest, ListIsNewestFirstWithOutcomeAndSourceCounts) {
  auto older = Record("2026-11-30T01:00:00.000Z", "2026-11-30T01:00:00.000Z",
                      "2026-11-30T01:00:03.500Z", ExitCode::kOk);
  older.sources = {ListedSource("noaa", refresh::SourceStatus::kOk),
                   ListedSource("usgs", refresh::SourceStatus::kOk)};
  auto newer = Record("2026-11-30T02:00:00.000Z", "2026-11-30T02:00:00.000Z",
                      "2026-11-30T02:01:05.000Z", ExitCode::kInterrupted);
  newer.sources = {ListedSource("noaa", refresh::SourceStatus::kFailed),
                   ListedSource("usgs", refresh::SourceStatus::kNotStarted)};
  const auto listed = refresh::NewestRuns({older, newer}, 0);
  ASSERT_EQ(listed.size(), 2u);
  EXPECT_EQ(listed[0].run_id, newer.run_id);
  EXPECT_EQ(FormatRunList(listed),
            "RUN ID                    COMMAND  STARTED                   DURATION  STATUS       "
            "SOURCES\n"
            "2026-11-30T02:00:00.000Z  refresh  2026-11-30T02:00:00.000Z  1 m 05 s  interrupted  "
            "0 ok, 1 failed, 1 not started\n"
            "2026-11-30T01:00:00.000Z  refresh  2026-11-30T01:00:00.000Z  3.5 s     ok           "
            "2 ok, 0 failed\n");
  EXPECT_EQ(refresh::NewestRuns({older, newer}, 1).size(), 1u);
  const auto json = RunListJson(listed);
  EXPECT_EQ(json[0]["status"], "interrupted");
  EXPECT_EQ(json[0]["exit_code"], 130);
  EXPECT_EQ(json[0]["seconds"], 65.0);
  EXPECT_EQ(json[1]["sources_ok"], 2);
  EXPECT_EQ(FormatRunList({}), "no runs recorded yet\n");
}

TEST(RunListTest, TraceNamesWhereASourceFailedAndItsSnapshots) {
  auto record = Record("r1", "2026-11-30T02:00:00Z", "bad time", ExitCode::kRunFailed);
  auto failed = ListedSource("noaa", refresh::SourceStatus::kFailed);
  failed.phase = load::Phase::kNormalize;
  failed.error = "resource daily_weather: column tmax is not a number";
  auto ok = ListedSource("usgs", refresh::SourceStatus::kOk);
  ok.rows = 170;
  ok.snapshots = {{"raw_usgs.sites", 801030709168230257}};
  record.sources = {failed, ok};
  record.transform_log_tail = "line one\nline two";
  const std::string trace = FormatRunTrace(record);
  EXPECT_THAT(trace, HasSubstr("  status    failed (exit 1)\n"));
  EXPECT_THAT(trace, HasSubstr("  duration  -\n"));
  EXPECT_THAT(trace, HasSubstr("  noaa: failed in normalize\n"));
  EXPECT_THAT(trace, HasSubstr("    error     resource daily_weather: column tmax"));
  EXPECT_THAT(trace, HasSubstr("    rows      170\n"));
  EXPECT_THAT(trace, HasSubstr("    snapshot  raw_usgs.sites 801030709168230257\n"));
  EXPECT_THAT(trace, HasSubstr("transform\n  not_run\n  log tail:\n    line one\n    line two\n"));
  const auto json = RunTraceJson(record);
  EXPECT_EQ(json["sources"][0]["phase"], "normalize");
  EXPECT_EQ(json["sources"][1]["snapshots"]["raw_usgs.sites"], "801030709168230257");
  EXPECT_TRUE(json["seconds"].is_null());
  record.command = "run";
  EXPECT_THAT(FormatRunTrace(record), Not(HasSubstr("transform")));
}

TEST(RunListTest, InterruptedSourcesAreCountedAndTracedWithTheirPhase) {
  auto record =
      Record("r2", "2026-11-30T02:00:00.000Z", "2026-11-30T02:00:02.000Z", ExitCode::kTerminated);
  record.command = "run";
  auto stopped = ListedSource("noaa", refresh::SourceStatus::kInterrupted);
  stopped.phase = load::Phase::kLoad;
  stopped.error = "source noaa, resource daily_weather: interrupted by SIGTERM";
  record.sources = {stopped};
  EXPECT_THAT(FormatRunList({record}), HasSubstr("terminated  0 ok, 0 failed, 1 interrupted\n"));
  const auto json = RunListJson({record});
  EXPECT_EQ(json[0]["sources_interrupted"], 1);
  EXPECT_EQ(json[0]["sources_failed"], 0);
  const std::string trace = FormatRunTrace(record);
  EXPECT_THAT(trace, HasSubstr("  status    terminated (exit 143)\n"));
  EXPECT_THAT(trace, HasSubstr("  noaa: interrupted in load\n"));
  EXPECT_THAT(trace, HasSubstr("    error     source noaa, resource daily_weather: interrupted"));
}

TEST(RunListTest, ATransformRunShowsItsTransformAndNoSources) {
  auto record =
      Record("r3", "2026-11-30T02:00:00.000Z", "2026-11-30T02:00:03.000Z", ExitCode::kInterrupted);
  record.command = "transform";
  record.transform_status = refresh::TransformStatus::kInterrupted;
  record.transform_seconds = 2.5;
  record.transform_log_tail = "== databox: step stopped: interrupted by SIGINT";
  const std::string list = FormatRunList({record});
  EXPECT_THAT(list, HasSubstr(" transform  2026-11-30T02:00:00.000Z"));
  EXPECT_THAT(list, HasSubstr("interrupted  - (transform only)\n"));
  const std::string trace = FormatRunTrace(record);
  EXPECT_THAT(trace, HasSubstr("run r3 (transform)\n  status    interrupted (exit 130)\n"));
  EXPECT_THAT(trace, Not(HasSubstr("sources")));
  EXPECT_THAT(trace, HasSubstr("transform\n  interrupted in 2.5 s\n  log tail:\n    "
                               "== databox: step stopped: interrupted by SIGINT\n"));
  EXPECT_EQ(RunTraceJson(record)["transform"]["seconds"], 2.5);
}

TEST(RunListTest, FindRunTakesTheIdOrAUniquePrefix) {
  const std::vector<refresh::RunRecord> records = {
      Record("2026-11-30T01:00:00.000Z", "", "", ExitCode::kOk),
      Record("2026-11-30T02:00:00.000Z", "", "", ExitCode::kOk)};
  EXPECT_EQ(FindRun(records, "2026-11-30T02:00:00.000Z")->run_id, records[1].run_id);
  EXPECT_EQ(FindRun(records, "2026-11-30T01")->run_id, records[0].run_id);
  auto ambiguous = FindRun(records, "2026-11-30");
  ASSERT_FALSE(ambiguous.has_value());
  EXPECT_EQ(ambiguous.error().kind, ErrorKind::kConfig);
  auto missing = FindRun(records, "nope");
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().kind, ErrorKind::kNotFound);
  EXPECT_THAT(missing.error().message,
              HasSubstr("newest: 2026-11-30T02:00:00.000Z, 2026-11-30T01"));
}

}  // namespace
}  // namespace databox::cli
