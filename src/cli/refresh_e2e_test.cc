// The main job end to end through the built binary: `databox refresh` of the example registry
// over the recordings with the real SQLMesh, a refresh where one source fails, and a preflight
// failure. Each test works on a copy of the example registry in its own folder.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>

#include "cli/example_project_test_support.h"

namespace {

namespace fs = std::filesystem;
using databox::cli::testing::Contains;
using databox::cli::testing::CopyRecordingsWithFailingSource;
using databox::cli::testing::ExampleProjectTest;
using databox::cli::testing::kRecordings;
using databox::cli::testing::RunResult;
using databox::cli::testing::Slurp;

class RefreshE2e : public ExampleProjectTest {
 protected:
  //! The first cell of `databox query SQL --json`'s first row, as printed.
  std::string QueryScalar(const std::string& sql) {
    RunResult r = Databox({"query", sql, "--json"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    std::smatch m;
    static const std::regex kFirstValue(R"(^\{"[^"]*":"?([^",}]*))");
    return std::regex_search(r.out, m, kFirstValue) ? m[1].str() : "";
  }
};

struct Interval {
  std::string start, end;
};

//! SOURCE_START/SOURCE_END times per source from the protocol lines.
std::map<std::string, Interval> Intervals(const std::string& out) {
  std::map<std::string, Interval> result;
  std::regex line(R"((SOURCE_START|SOURCE_END) source=(\S+) at=(\S+))");
  for (std::sregex_iterator it(out.begin(), out.end(), line), end; it != end; ++it) {
    auto& interval = result[(*it)[2]];
    ((*it)[1] == "SOURCE_START" ? interval.start : interval.end) = (*it)[3];
  }
  return result;
}

TEST_F(RefreshE2e, SixSourcesLoadConcurrentlyInspectAndBuildModelsThenRerunIsIdempotent) {
  WriteRegistry();
  RunResult first = Databox({"refresh"});
  ASSERT_EQ(first.exit_code, 0) << first.out << first.err;
  const auto intervals = Intervals(first.out);
  ASSERT_EQ(intervals.size(), 6u) << first.out;
  // Concurrency: some source started before another one ended (ISO times compare as text).
  bool overlap = false;
  for (const auto& [a, ia] : intervals) {
    for (const auto& [b, ib] : intervals) {
      if (a != b && ia.start < ib.end && ib.start < ia.end) overlap = true;
    }
  }
  EXPECT_TRUE(overlap) << first.out;
  EXPECT_TRUE(Contains(first.out, "PHASE_START phase=transform")) << first.out;
  EXPECT_TRUE(Contains(first.out, "analytics.platform_health")) << first.out;
  EXPECT_TRUE(Contains(first.out, "(6 rows)")) << first.out;

  const std::string weather = "SELECT count(*) FROM polaris_aws.raw_noaa.daily_weather";
  const std::string events = "SELECT count(*) FROM polaris_aws.raw_usgs_earthquakes.events";
  const std::string weather_rows = QueryScalar(weather);
  const std::string event_rows = QueryScalar(events);
  EXPECT_NE(weather_rows, "");
  EXPECT_NE(weather_rows, "0");

  RunResult second = Databox({"refresh"});
  ASSERT_EQ(second.exit_code, 0) << second.out << second.err;
  EXPECT_EQ(QueryScalar(weather), weather_rows);
  EXPECT_EQ(QueryScalar(events), event_rows);
  // Two successful loads per source are in the status tables, and the model sees the latest.
  EXPECT_EQ(QueryScalar("SELECT count(*) FROM polaris_aws.raw_gbif._dlt_load_status"), "2");
  EXPECT_EQ(QueryScalar("SELECT count(*) FROM databox.analytics.platform_health WHERE status = 0"),
            "6");
}

//! Every entry under `folder`: relative path, then for files size, mtime and content.
std::map<std::string, std::string> Listing(const fs::path& folder) {
  std::map<std::string, std::string> entries;
  for (const auto& entry : fs::recursive_directory_iterator(folder)) {
    const std::string name = fs::relative(entry.path(), folder).string();
    if (!entry.is_regular_file()) {
      entries[name] = "folder";
      continue;
    }
    entries[name] = std::to_string(entry.file_size()) + " " +
                    std::to_string(entry.last_write_time().time_since_epoch().count()) + "\n" +
                    Slurp(entry.path());
  }
  return entries;
}

// The transform project is the user's: a refresh reads it and writes nothing there, and
// platform_health follows the registry's routine sources (here xeno_canto made explicit-only).
TEST_F(RefreshE2e, RefreshWritesNothingIntoTheTransformProject) {
  const std::string xeno_canto =
      "name = \"xeno_canto\"\n"
      "description = \"xeno-canto API v3: bird sound recordings from Arizona\"\n";
  WriteRegistry(xeno_canto + "eligibility = \"routine\"",
                xeno_canto + "eligibility = \"explicit\"");
  const auto before = Listing(dir_ / "transform");
  ASSERT_TRUE(before.contains("models/analytics/platform_health.sql"));
  RunResult r = Databox({"refresh"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(Contains(r.out, "(5 rows)")) << r.out;
  EXPECT_EQ(Listing(dir_ / "transform"), before);
  EXPECT_EQ(QueryScalar("SELECT count(*) FROM databox.analytics.platform_health"), "5");
  EXPECT_EQ(QueryScalar("SELECT count(DISTINCT source) AS n FROM databox.analytics.platform_health "
                        "WHERE status = 0 AND source IN ('ebird', 'gbif', 'noaa', 'usgs', "
                        "'usgs_earthquakes')"),
            "5");
}

// A project without the platform_health model refreshes and prints no platform_health table.
TEST_F(RefreshE2e, AProjectWithoutPlatformHealthPrintsNoTableAndNoError) {
  WriteRegistry();
  fs::remove(dir_ / "transform" / "models" / "analytics" / "platform_health.sql");
  RunResult r = Databox({"refresh"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(Contains(r.out, "transform: ok")) << r.out;
  EXPECT_FALSE(Contains(r.out, "platform_health")) << r.out;
  EXPECT_FALSE(Contains(r.err, "platform_health")) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "transform" / "models" / "analytics" / "platform_health.sql"));
}

TEST_F(RefreshE2e, OneFailingSourceDoesNotStopTheOthersAndBlocksTheTransform) {
  // A copy of the recordings in which every noaa response is an HTTP 500.
  const fs::path broken = dir_ / "recordings";
  CopyRecordingsWithFailingSource(kRecordings, broken, "noaa");
  recordings_ = broken;
  WriteRegistry();
  RunResult r = Databox({"refresh"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_EQ(Intervals(r.out).size(), 6u) << r.out;
  EXPECT_TRUE(Contains(r.out, "SOURCE_END source=noaa")) << r.out;
  EXPECT_TRUE(std::regex_search(r.out, std::regex("SOURCE_END source=noaa \\S+ status=1")));
  for (const char* ok : {"ebird", "usgs", "usgs_earthquakes", "gbif", "xeno_canto"}) {
    EXPECT_TRUE(std::regex_search(
        r.out, std::regex(std::string("SOURCE_END source=") + ok + " \\S+ status=0")))
        << ok << "\n"
        << r.out;
  }
  EXPECT_FALSE(Contains(r.out, "PHASE_START phase=transform")) << r.out;
  EXPECT_TRUE(Contains(r.out, "transform: not_run")) << r.out;
  // The five good sources were inspected and committed.
  EXPECT_EQ(QueryScalar("SELECT count(*) FROM polaris_aws.raw_gbif._dlt_load_status"), "1");

  RunResult status = Databox({"status"});
  EXPECT_EQ(status.exit_code, 0) << status.err;
  const auto noaa = status.out.find("noaa:");
  ASSERT_NE(noaa, std::string::npos) << status.out;
  EXPECT_TRUE(Contains(status.out.substr(noaa), "last failure")) << status.out;
  EXPECT_TRUE(Contains(status.out.substr(noaa), "500")) << status.out;
}

TEST_F(RefreshE2e, UnwritableWarehouseFailsPreflightAndStartsNothing) {
  // A regular file where the warehouse folder should be: nothing can be written below it.
  std::ofstream(dir_ / "not_a_folder") << "x";
  WriteRegistry("[project.catalog]", "[project.warehouse]\nlocation = \"" +
                                         (dir_ / "not_a_folder" / "warehouse").string() +
                                         "\"\n\n[project.catalog]");
  RunResult r = Databox({"refresh"});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_TRUE(Contains(r.err, "preflight failed")) << r.err;
  EXPECT_TRUE(Contains(r.err, "warehouse")) << r.err;
  EXPECT_FALSE(Contains(r.out, "SOURCE_START")) << r.out;
  // No snapshot anywhere: the catalog holds no table.
  RunResult query = Databox({"inspect", "raw_noaa.daily_weather"});
  EXPECT_NE(query.exit_code, 0);
}

TEST_F(RefreshE2e, ExplicitOnlySourceIsRefusedWithHowToRunIt) {
  WriteRegistry();
  RunResult r = Databox({"refresh", "--source", "avonet"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(Contains(r.err, "databox run avonet")) << r.err;
  RunResult usfws = Databox({"run", "usfws"});
  EXPECT_EQ(usfws.exit_code, 2);
  EXPECT_TRUE(Contains(usfws.err, "--targets")) << usfws.err;
}

TEST_F(RefreshE2e, RepeatedSourcesAreTakenInOrderInBothForms) {
  WriteRegistry();
  // Both reach the refresh, in the order given: the first one named is refused first.
  RunResult frob_first = Databox({"refresh", "--source=frob", "--source", "avonet"});
  EXPECT_EQ(frob_first.exit_code, 2);
  EXPECT_TRUE(Contains(frob_first.err, "unknown source 'frob'")) << frob_first.err;
  RunResult avonet_first = Databox({"refresh", "--source", "avonet", "--source=frob"});
  EXPECT_EQ(avonet_first.exit_code, 2);
  EXPECT_TRUE(Contains(avonet_first.err, "databox run avonet")) << avonet_first.err;
}

}  // namespace
