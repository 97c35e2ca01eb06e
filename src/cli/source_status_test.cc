// `databox status` from run records: ages in words, each source's last load and failure, and
// the transform of the newest refresh.
#include "cli/source_status.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "cli/run_list.h"
#include "common/clock.h"
#include "report/freshness.h"

namespace databox::cli {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

constexpr int64_t kNow = 1'796'000'000'000;  // 2026-11-30T00:53:20Z

//! The ISO time `seconds` before kNow.
std::string Ago(int64_t seconds) { return MillisIso(kNow - seconds * 1000); }

refresh::RunRecord Record(std::string id, std::string command, int64_t seconds_ago,
                          ExitCode code = ExitCode::kOk) {
  refresh::RunRecord record;
  record.run_id = std::move(id);
  record.command = std::move(command);
  record.started_at = Ago(seconds_ago + 10);
  record.finished_at = Ago(seconds_ago);
  record.exit_code = code;
  return record;
}

refresh::SourceRun Source(std::string name, refresh::SourceStatus status, int64_t rows = 0) {
  refresh::SourceRun run;
  run.source = std::move(name);
  run.status = status;
  run.rows = rows;
  run.load_id = "L-" + run.source;
  return run;
}

TEST(SourceStatusTest, AgesReadAsWords) {
  EXPECT_EQ(FormatAge(0), "0 s ago");
  EXPECT_EQ(FormatAge(59), "59 s ago");
  EXPECT_EQ(FormatAge(60), "1 min ago");
  EXPECT_EQ(FormatAge(3599), "59 min ago");
  EXPECT_EQ(FormatAge(3600), "1 h ago");
  EXPECT_EQ(FormatAge(5234), "1 h 27 min ago");
  EXPECT_EQ(FormatAge(86'400), "1 day ago");
  EXPECT_EQ(FormatAge(86'400 + 4 * 3600 + 59), "1 day 4 h ago");
  EXPECT_EQ(FormatAge(2 * 86'400 + 3600), "2 days 1 h ago");
  EXPECT_EQ(FormatAge(3 * 86'400 + 5 * 3600), "3 days ago");
  EXPECT_EQ(FormatAge(-1), "age unknown");
}

TEST(SourceStatusTest, LastLoadAndFailurePerSourceWithTheirAges) {
  auto first = Record("r1", "run", 5234);
  first.sources.push_back(Source("usgs", refresh::SourceStatus::kOk, 12));
  auto second = Record("r2", "run", 120, ExitCode::kRunFailed);
  auto failed = Source("usgs", refresh::SourceStatus::kFailed);
  failed.phase = load::Phase::kLoad;
  failed.error = "HTTP 500";
  second.sources.push_back(failed);
  const std::string text = FormatStatus({"usgs", "noaa"}, {first, second}, kNow);
  EXPECT_THAT(text, HasSubstr("usgs:\n  last load: L-usgs  rows=12  at " + Ago(5234) +
                              " (1 h 27 min ago)\n"));
  EXPECT_THAT(text, HasSubstr("  last failure: " + Ago(120) + " (2 min ago) [load] HTTP 500\n"));
  EXPECT_THAT(text, HasSubstr("noaa:\n  last load: never\n"));
  EXPECT_THAT(text, Not(HasSubstr(" s ago)\n  last failure")));
  const auto json = StatusJson({"usgs", "noaa"}, {first, second}, kNow);
  EXPECT_EQ(json["sources"][0]["last_load"]["age_seconds"], 5234);
  EXPECT_EQ(json["sources"][0]["last_failure"]["age_seconds"], 120);
  EXPECT_TRUE(json["sources"][1]["last_load"].is_null());
  EXPECT_TRUE(json["transform"].is_null());  // `run` never runs the transform
  EXPECT_THAT(text, HasSubstr("transform: never run (no refresh recorded)\n"));
}

TEST(SourceStatusTest, StatusAndTheReportAgreeOnEachSourcesLastFailure) {
  // usgs: loaded, then a load stopped by Ctrl-C. noaa: failed, then loaded.
  auto first = Record("r1", "run", 3000);
  first.sources.push_back(Source("usgs", refresh::SourceStatus::kOk, 5));
  auto noaa_failed = Source("noaa", refresh::SourceStatus::kFailed);
  noaa_failed.error = "HTTP 503";
  first.sources.push_back(noaa_failed);
  auto second = Record("r2", "run", 60, ExitCode::kInterrupted);
  auto stopped = Source("usgs", refresh::SourceStatus::kInterrupted);
  stopped.phase = load::Phase::kExtract;
  stopped.error = "interrupted";
  second.sources.push_back(stopped);
  second.sources.push_back(Source("noaa", refresh::SourceStatus::kOk, 3));
  const std::vector<refresh::RunRecord> records = {first, second};

  registry::Registry registry;
  for (const char* name : {"usgs", "noaa"}) {
    registry::Source source;
    source.name = name;
    registry.sources.push_back(source);
  }
  const auto states = report::SourceStates(registry, records, kNow, 26 * 3600);
  const auto json = StatusJson({"usgs", "noaa"}, records, kNow);
  ASSERT_EQ(states.size(), 2u);

  const auto& usgs = json["sources"][0]["last_failure"];
  ASSERT_TRUE(usgs.is_object()) << "an interrupted load is a failure for status";
  EXPECT_EQ(usgs["at"], Ago(60));
  EXPECT_EQ(usgs["current"], true);
  EXPECT_EQ(states[0].last_failure_at, usgs["at"].get<std::string>()) << "and for the report";
  EXPECT_EQ(states[0].last_failure_error, "interrupted");

  const auto& noaa = json["sources"][1]["last_failure"];
  ASSERT_TRUE(noaa.is_object());
  EXPECT_EQ(noaa["current"], false) << "an ok load came after it";
  EXPECT_EQ(states[1].last_failure_at, "") << "the report flags current failures only";
}

TEST(SourceStatusTest, EachSourceIsAsOldAsItsOwnLoadNotTheRun) {
  // One refresh of two sources: usgs loaded in the first 2 s of a run that ended 1 h later.
  auto refresh = Record("r1", "refresh", 100);
  refresh.started_at = Ago(3700);
  auto quick = Source("usgs", refresh::SourceStatus::kOk, 3);
  quick.started_at = Ago(3700);
  quick.seconds = 2;
  auto slow = Source("noaa", refresh::SourceStatus::kOk, 4);
  slow.started_at = Ago(3700);
  slow.seconds = 3600;
  refresh.sources = {quick, slow};
  const auto json = StatusJson({"usgs", "noaa"}, {refresh}, kNow);
  EXPECT_EQ(json["sources"][0]["last_load"]["completed_at"], Ago(3698));
  EXPECT_EQ(json["sources"][0]["last_load"]["age_seconds"], 3698);
  EXPECT_EQ(json["sources"][1]["last_load"]["age_seconds"], 100);
  EXPECT_THAT(FormatStatus({"usgs"}, {refresh}, kNow),
              HasSubstr("rows=3  at " + Ago(3698) + " (1 h 1 min ago)"));
}

TEST(SourceStatusTest, AFailedTransformShowsWithItsExitCode) {
  auto record = Record("r1", "refresh", 7200, ExitCode::kRunFailed);
  record.transform_status = refresh::TransformStatus::kFailed;
  record.transform_exit_code = 1;
  const std::string text = FormatStatus({}, {record}, kNow);
  EXPECT_EQ(text, "transform: failed (exit 1) at " + Ago(7200) + " (2 h ago), run r1\n");
  const auto json = StatusJson({}, {record}, kNow);
  EXPECT_EQ(json["transform"]["status"], "failed");
  EXPECT_EQ(json["transform"]["exit_code"], 1);
  EXPECT_EQ(json["transform"]["at"], Ago(7200));
  EXPECT_EQ(json["transform"]["age_seconds"], 7200);
  EXPECT_EQ(json["transform"]["run_id"], "r1");
  EXPECT_EQ(json["transform"]["last_ran"]["run_id"], "r1");
}

TEST(SourceStatusTest, ATransformThatDidNotRunPointsAtTheLastOneThatDid) {
  auto ran = Record("r1", "refresh", 4 * 86'400, ExitCode::kRunFailed);
  ran.transform_status = refresh::TransformStatus::kFailed;
  ran.transform_exit_code = 2;
  auto skipped = Record("r2", "refresh", 3600);
  skipped.transform_status = refresh::TransformStatus::kSkipped;
  auto interrupted = Record("r3", "refresh", 60, ExitCode::kInterrupted);
  auto run = Record("r4", "run", 30);  // not a refresh: ignored
  EXPECT_EQ(FormatStatus({}, {ran, skipped}, kNow),
            "transform: skipped at " + Ago(3600) + " (1 h ago), run r2\n" +
                "  last ran: failed (exit 2) at " + Ago(4 * 86'400) + " (4 days ago), run r1\n");
  const auto json = StatusJson({}, {ran, skipped, interrupted, run}, kNow);
  EXPECT_EQ(json["transform"]["status"], "not_run");
  EXPECT_TRUE(json["transform"]["exit_code"].is_null());
  EXPECT_EQ(json["transform"]["last_ran"]["status"], "failed");
  EXPECT_EQ(json["transform"]["last_ran"]["exit_code"], 2);
  auto not_run = Record("r5", "refresh", 10, ExitCode::kRunFailed);
  EXPECT_EQ(TransformOutcome(not_run), "not_run");
  EXPECT_THAT(FormatStatus({}, {not_run}, kNow), HasSubstr("\n  last ran: never\n"));
}

TEST(SourceStatusTest, ARefreshInterruptedDuringItsLoadsSaysNotRunAsRunsShowDoes) {
  // Ctrl-C during the loads: the transform never started, and the record says so.
  auto interrupted = Record("r1", "refresh", 60, ExitCode::kInterrupted);
  interrupted.sources.push_back(Source("usgs", refresh::SourceStatus::kInterrupted));
  EXPECT_EQ(TransformOutcome(interrupted), "not_run");
  EXPECT_THAT(FormatStatus({}, {interrupted}, kNow),
              HasSubstr("transform: not_run at " + Ago(60) + " (1 min ago), run r1\n"));
  EXPECT_EQ(StatusJson({}, {interrupted}, kNow)["transform"]["status"], "not_run");
  EXPECT_THAT(FormatRunTrace(interrupted), HasSubstr("transform\n  not_run"));
  EXPECT_EQ(RunTraceJson(interrupted)["transform"]["status"], "not_run");
  EXPECT_EQ(RunListJson({interrupted})[0]["status"], "interrupted");
}

TEST(SourceStatusTest, ADataboxTransformRunCountsAsTheNewestTransform) {
  auto refreshed = Record("r1", "refresh", 3600);
  refreshed.transform_status = refresh::TransformStatus::kOk;
  refreshed.transform_exit_code = 0;
  auto transformed = Record("t1", "transform", 60, ExitCode::kRunFailed);
  transformed.transform_status = refresh::TransformStatus::kFailed;
  transformed.transform_exit_code = 1;
  EXPECT_EQ(FormatStatus({}, {refreshed, transformed}, kNow),
            "transform: failed (exit 1) at " + Ago(60) + " (1 min ago), run t1\n");
}

}  // namespace
}  // namespace databox::cli
