// The run history record: a line in the documented format (docs/run_history.md) reads into
// typed states and writes back byte for byte; unknown states make the line unreadable, which
// ReadAll skips.
#include "refresh/run_history.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <string>

#include "common/interrupt.h"
#include "refresh/tracked_load.h"

namespace databox::refresh {
namespace {

// Written by hand from docs/run_history.md: a refresh in which one source failed to commit and
// one never started. Keys in nlohmann's (sorted) order, as Append writes them.
constexpr const char* kRecordLine =
    R"({"command":"refresh","exit_code":1,"finished_at":"2026-11-30T02:11:30.001Z",)"
    R"("inspection":{"ok":false,"problems":[]},"run_id":"2026-11-30T02:10:58.659Z",)"
    R"("sources":[{"error":"","load_id":"1796004658.717857","notes":["day 3 skipped"],)"
    R"("phase":"","rows":32,"seconds":0.88,"snapshots":{"raw_noaa.daily_weather":123},)"
    R"("source":"noaa","started_at":"2026-11-30T02:10:58.700Z","status":"ok"},)"
    R"({"error":"network: HTTP 500","load_id":"","notes":[],"phase":"commit","rows":0,)"
    R"("seconds":1.5,"snapshots":{},"source":"gbif","started_at":"2026-11-30T02:10:58.701Z",)"
    R"("status":"failed"},{"error":"","load_id":"","notes":[],"phase":"","rows":0,)"
    R"("seconds":0.0,"snapshots":{},"source":"usgs","started_at":"","status":"not_started"}],)"
    R"("started_at":"2026-11-30T02:10:58.659Z","transform":{"log_tail":"","status":"not_run"}})";

TEST(RunHistoryTest, SnapshotIdsBeyondTwoToThe53AreWrittenAsStringsAndReadInBothForms) {
  RunRecord record;
  record.run_id = "r";
  SourceRun run;
  run.source = "usgs";
  run.status = SourceStatus::kOk;
  run.snapshots = {{"raw_usgs.sites", 801030709168230257}, {"raw_usgs.small", 12}};
  record.sources = {run};
  const nlohmann::json json = record.ToJson();
  EXPECT_EQ(json["sources"][0]["snapshots"].dump(),
            R"({"raw_usgs.sites":"801030709168230257","raw_usgs.small":12})");
  auto back = RunRecord::FromJson(json);
  ASSERT_TRUE(back.has_value()) << back.error().ToString();
  EXPECT_EQ(back->sources[0].snapshots, run.snapshots);
  // Records written before ids became strings hold plain numbers.
  auto old = RunRecord::FromJson(nlohmann::json::parse(
      R"({"run_id":"r","sources":[{"source":"usgs","snapshots":{"t":801030709168230257}}]})"));
  ASSERT_TRUE(old.has_value()) << old.error().ToString();
  EXPECT_EQ(old->sources[0].snapshots.at("t"), 801030709168230257);
  auto bad = RunRecord::FromJson(nlohmann::json::parse(
      R"({"run_id":"r","sources":[{"source":"usgs","snapshots":{"t":"12x"}}]})"));
  EXPECT_FALSE(bad.has_value());
}

TEST(RunHistoryTest, ADocumentedRecordReadsIntoTypedStatesAndWritesBackUnchanged) {
  auto record = RunRecord::FromJson(nlohmann::json::parse(kRecordLine));
  ASSERT_TRUE(record.has_value()) << record.error().ToString();
  ASSERT_EQ(record->sources.size(), 3u);
  EXPECT_EQ(record->sources[0].status, SourceStatus::kOk);
  EXPECT_EQ(record->sources[0].phase, std::nullopt);
  EXPECT_EQ(record->sources[1].status, SourceStatus::kFailed);
  EXPECT_EQ(record->sources[1].phase, load::Phase::kCommit);
  EXPECT_EQ(record->sources[2].status, SourceStatus::kNotStarted);
  EXPECT_EQ(record->transform_status, TransformStatus::kNotRun);
  EXPECT_EQ(record->exit_code, ExitCode::kRunFailed);
  EXPECT_EQ(record->ToJson().dump(), kRecordLine);
}

// Written by hand from docs/run_history.md: a `databox run` stopped by Ctrl-C while extracting.
constexpr const char* kInterruptedLine =
    R"({"command":"run","exit_code":130,"finished_at":"2026-11-30T03:00:02.000Z",)"
    R"("inspection":{"ok":false,"problems":[]},"run_id":"2026-11-30T03:00:00.000Z",)"
    R"("sources":[{"error":"source noaa, resource daily_weather: interrupted by SIGINT",)"
    R"("load_id":"","notes":[],"phase":"load","rows":0,"seconds":0.0,"snapshots":{},)"
    R"("source":"noaa","started_at":"2026-11-30T03:00:00.000Z","status":"interrupted"}],)"
    R"("started_at":"2026-11-30T03:00:00.000Z","transform":{"log_tail":"","status":"not_run"}})";

TEST(RunHistoryTest, AnInterruptedRunReadsBackWithItsSourceInterrupted) {
  auto record = RunRecord::FromJson(nlohmann::json::parse(kInterruptedLine));
  ASSERT_TRUE(record.has_value()) << record.error().ToString();
  ASSERT_EQ(record->sources.size(), 1u);
  EXPECT_EQ(record->sources[0].status, SourceStatus::kInterrupted);
  EXPECT_EQ(record->sources[0].phase, load::Phase::kLoad);
  EXPECT_EQ(record->exit_code, ExitCode::kInterrupted);
  EXPECT_EQ(record->ToJson().dump(), kInterruptedLine);
}

TEST(RunHistoryTest, NewestRunsAreTheLastRecordsNewestFirstAndZeroMeansAll) {
  std::vector<RunRecord> records(3);
  for (std::size_t i = 0; i < records.size(); ++i) records[i].run_id = std::to_string(i);
  const auto all = NewestRuns(records, 0);
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[0].run_id, "2");
  EXPECT_EQ(all[2].run_id, "0");
  const auto two = NewestRuns(records, 2);
  ASSERT_EQ(two.size(), 2u);
  EXPECT_EQ(two[0].run_id, "2");
  EXPECT_EQ(two[1].run_id, "1");
  EXPECT_EQ(NewestRuns(records, 7).size(), 3u);
}

TEST(RunHistoryTest, ALoadEndedBySigintIsRecordedInterruptedAndOtherwiseFailed) {
  SourceRun failed;
  RecordLoadOutcome(std::unexpected(Error{ErrorKind::kNetwork, "HTTP 500"}), load::Phase::kExtract,
                    failed);
  EXPECT_EQ(failed.status, SourceStatus::kFailed);

  InstallInterruptHandlers();
  ASSERT_EQ(std::raise(SIGINT), 0);  // recorded, not acted on
  const Status stopped = CheckInterrupted("noaa");
  ASSERT_FALSE(stopped);
  SourceRun run;
  RecordLoadOutcome(std::unexpected(stopped.error()), load::Phase::kExtract, run);
  ClearInterruptForTest();
  EXPECT_EQ(run.status, SourceStatus::kInterrupted);
  EXPECT_EQ(run.phase, load::Phase::kExtract);
  EXPECT_EQ(run.error, "noaa: interrupted by SIGINT");
}

TEST(RunHistoryTest, TheTransformExitCodeAndEveryTransformStatusSurviveAWriteAndARead) {
  for (TransformStatus status : {TransformStatus::kOk, TransformStatus::kFailed,
                                 TransformStatus::kNotRun, TransformStatus::kSkipped}) {
    RunRecord record;
    record.run_id = "r";
    record.transform_status = status;
    record.transform_exit_code = 3;
    record.transform_seconds = 12.5;
    record.exit_code = ExitCode::kUsage;
    auto read = RunRecord::FromJson(nlohmann::json::parse(record.ToJson().dump()));
    ASSERT_TRUE(read.has_value()) << read.error().ToString();
    EXPECT_EQ(read->transform_status, status);
    EXPECT_EQ(read->transform_exit_code, 3);
    EXPECT_EQ(read->transform_seconds, 12.5);
    EXPECT_EQ(read->exit_code, ExitCode::kUsage);
  }
}

TEST(RunHistoryTest, AnInterruptedTransformReadsWithoutTheExitCodeOfTheStepDataboxStopped) {
  // Records written before held the exit of the step our own SIGTERM ended (143): not SQLMesh's.
  RunRecord record;
  record.run_id = "r";
  record.transform_status = TransformStatus::kInterrupted;
  record.transform_seconds = 2.5;
  record.exit_code = ExitCode::kInterrupted;
  nlohmann::json json = record.ToJson();
  json["transform"]["exit_code"] = 143;
  auto read = RunRecord::FromJson(json);
  ASSERT_TRUE(read.has_value()) << read.error().ToString();
  EXPECT_EQ(read->transform_status, TransformStatus::kInterrupted);
  EXPECT_FALSE(read->transform_exit_code.has_value());
  EXPECT_EQ(read->transform_seconds, 2.5);
}

TEST(RunHistoryTest, ARecordWithoutTransformSecondsReadsWithoutThem) {
  RunRecord record;
  record.run_id = "r";
  auto read = RunRecord::FromJson(nlohmann::json::parse(record.ToJson().dump()));
  ASSERT_TRUE(read.has_value()) << read.error().ToString();
  EXPECT_FALSE(read->transform_seconds.has_value());
}

TEST(RunHistoryTest, UnknownStatesAreDataErrorsNamingTheText) {
  const struct {
    const char* pointer;
    nlohmann::json value;
    const char* quoted;
  } cases[] = {
      {"/sources/0/status", "done", "'done'"},
      {"/sources/1/phase", "upload", "'upload'"},
      {"/transform/status", "running", "'running'"},
      {"/exit_code", 7, "7"},
  };
  for (const auto& c : cases) {
    nlohmann::json json = nlohmann::json::parse(kRecordLine);
    json[nlohmann::json::json_pointer(c.pointer)] = c.value;
    auto record = RunRecord::FromJson(json);
    ASSERT_FALSE(record.has_value()) << c.pointer;
    EXPECT_EQ(record.error().kind, ErrorKind::kData);
    EXPECT_TRUE(record.error().message.starts_with("run history record: "))
        << record.error().message;
    EXPECT_NE(record.error().message.find(c.quoted), std::string::npos) << record.error().message;
  }
}

TEST(RunHistoryTest, ReadAllSkipsALineWithAnUnknownState) {
  char dir_template[] = "/tmp/run_history_test_XXXXXX";
  ASSERT_NE(::mkdtemp(dir_template), nullptr);
  const std::filesystem::path dir = dir_template;
  nlohmann::json unknown = nlohmann::json::parse(kRecordLine);
  unknown["sources"][0]["status"] = "done";
  std::ofstream(dir / "runs.jsonl") << unknown.dump() << "\n" << kRecordLine << "\n";

  auto records = RunHistory(dir).ReadAll();
  ASSERT_TRUE(records.has_value()) << records.error().ToString();
  ASSERT_EQ(records->size(), 1u);
  EXPECT_EQ(records->front().ToJson().dump(), kRecordLine);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace databox::refresh

namespace databox::refresh {
namespace {

TEST(RunHistoryModels, TransformModelsSurviveAWriteAndARead) {
  RunRecord record;
  record.run_id = "r";
  record.transform_models = {
      {"analytics.a", ModelStatus::kOk, "2026-12-04T10:00:00.000Z", 3, "passed 1", ""},
      {"analytics.b", ModelStatus::kFailed, "", std::nullopt, "", "boom"}};
  const nlohmann::json json = record.ToJson();
  ASSERT_TRUE(json["transform"].contains("models")) << json.dump();
  auto back = RunRecord::FromJson(json);
  ASSERT_TRUE(back) << back.error().message;
  ASSERT_EQ(back->transform_models.size(), 2u);
  EXPECT_EQ(back->transform_models[0].rows, 3);
  EXPECT_EQ(back->transform_models[0].built_at, "2026-12-04T10:00:00.000Z");
  EXPECT_EQ(back->transform_models[1].status, ModelStatus::kFailed);
  EXPECT_EQ(back->transform_models[1].error, "boom");
  EXPECT_FALSE(RunRecord().ToJson()["transform"].contains("models"));
}

TEST(RunHistoryModels, ASourceEndsAtItsOwnLoadsEndNotTheRuns) {
  RunRecord record;
  record.finished_at = "2026-12-04T10:05:00.000Z";
  SourceRun run;
  run.started_at = "2026-12-04T10:00:00.000Z";
  run.seconds = 1.5;
  EXPECT_EQ(SourceRunEndedAt(run, record), "2026-12-04T10:00:01.500Z");
  run.started_at = "";
  EXPECT_EQ(SourceRunEndedAt(run, record), "2026-12-04T10:05:00.000Z");
}

}  // namespace
}  // namespace databox::refresh
