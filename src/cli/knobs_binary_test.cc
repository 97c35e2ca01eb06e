// The operator knobs of the example registry (${NAME:-default} values), `--limit` and
// DATABOX_SMOKE, run by the built binary against the recorded sources (replay).
#include <gtest/gtest.h>

#include <string>

#include "cli/example_project_test_support.h"
#include "common/test_paths.h"

namespace databox::cli::testing {
namespace {

//! The rows `databox run` printed for `table` ("  raw_<source>.<table>  <disposition>  rows=N");
//! -1 if absent.
long RowsOf(const std::string& out, const std::string& table) {
  const std::string line = "\n  " + table + "  ";
  const auto pos = out.find(line);
  if (pos == std::string::npos) return -1;
  const auto rows = out.find("rows=", pos);
  return rows == std::string::npos ? -1 : std::stol(out.substr(rows + 5));
}

class KnobsTest : public ExampleProjectTest {
 protected:
  RunResult Run(const std::vector<std::string>& args, const std::vector<std::string>& env) const {
    std::vector<std::string> full = env;
    full.push_back("DATABOX_VENV_DIR=" + test_paths::VenvDir());
    return RunDatabox(Args(args), full, dir_);
  }
  //! True when something was loaded into the project's state folder.
  bool AnythingLoaded() const {
    return fs::exists(dir_ / ".databox" / "runs.jsonl") || fs::exists(dir_ / ".databox" / "loads");
  }
};

TEST_F(KnobsTest, GbifMaxRecordsKnobCapsTheRecordedOccurrences) {
  WriteRegistry();
  auto recorded = Run({"run", "gbif"}, {});
  ASSERT_EQ(recorded.exit_code, 0) << recorded.out << recorded.err;
  EXPECT_EQ(RowsOf(recorded.out, "raw_gbif.occurrences"), 2) << recorded.out;
  auto one = Run({"run", "gbif"}, {"DATABOX_GBIF_MAX_RECORDS=1"});
  ASSERT_EQ(one.exit_code, 0) << one.out << one.err;
  EXPECT_EQ(RowsOf(one.out, "raw_gbif.occurrences"), 1) << one.out;
}

TEST_F(KnobsTest, GbifPublicReleaseKnobSwitchesTheRecordedFilters) {
  WriteRegistry();
  auto recorded = Run({"run", "gbif"}, {"DATABOX_GBIF_PUBLIC_RELEASE=true"});
  ASSERT_EQ(recorded.exit_code, 0) << recorded.out << recorded.err;
  EXPECT_EQ(RowsOf(recorded.out, "raw_gbif.occurrences"), 2) << recorded.out;
  // Off, the query loses the dataset, license and presence filters, which were recorded with
  // them: replay has no answer for it, and the miss names the unfiltered request.
  auto off = Run({"run", "gbif"}, {"DATABOX_GBIF_PUBLIC_RELEASE=false"});
  EXPECT_NE(off.exit_code, 0) << off.out << off.err;
  const std::string unfiltered =
      "occurrence/search?classKey=212&country=US&hasCoordinate=true&limit=2&offset=0&"
      "stateProvince=Arizona";
  EXPECT_NE(off.err.find(unfiltered), std::string::npos) << off.err;
}

TEST_F(KnobsTest, LimitAndSmokeModeCapEveryResource) {
  WriteRegistry();
  auto full = Run({"run", "ebird"}, {});
  ASSERT_EQ(full.exit_code, 0) << full.out << full.err;
  ASSERT_GT(RowsOf(full.out, "raw_ebird.recent_observations"), 5) << full.out;
  ASSERT_GT(RowsOf(full.out, "raw_ebird.notable_observations"), 5) << full.out;
  // species_list is one recorded array that its transform unnests into one row per species.
  ASSERT_GT(RowsOf(full.out, "raw_ebird.species_list"), 5) << full.out;

  auto limited = Run({"run", "ebird", "--limit", "3"}, {});
  ASSERT_EQ(limited.exit_code, 0) << limited.out << limited.err;
  EXPECT_EQ(RowsOf(limited.out, "raw_ebird.recent_observations"), 3) << limited.out;
  EXPECT_EQ(RowsOf(limited.out, "raw_ebird.notable_observations"), 3) << limited.out;

  auto smoke = Run({"run", "ebird"}, {"DATABOX_SMOKE=1"});
  ASSERT_EQ(smoke.exit_code, 0) << smoke.out << smoke.err;
  EXPECT_EQ(RowsOf(smoke.out, "raw_ebird.recent_observations"), 5) << smoke.out;
  EXPECT_EQ(RowsOf(smoke.out, "raw_ebird.notable_observations"), 5) << smoke.out;
  EXPECT_EQ(RowsOf(smoke.out, "raw_ebird.species_list"), 5) << smoke.out;

  // --limit below the smoke cap wins; the smaller cap applies.
  auto both = Run({"run", "ebird", "--limit", "2"}, {"DATABOX_SMOKE=1"});
  ASSERT_EQ(both.exit_code, 0) << both.out << both.err;
  EXPECT_EQ(RowsOf(both.out, "raw_ebird.recent_observations"), 2) << both.out;

  auto refreshed =
      Run({"refresh", "--source", "gbif", "--skip-transform", "--limit", "1", "--json"}, {});
  ASSERT_EQ(refreshed.exit_code, 0) << refreshed.out << refreshed.err;
  EXPECT_NE(refreshed.out.find("\"rows\": 1,"), std::string::npos) << refreshed.out;
}

TEST_F(KnobsTest, BadKnobValuesFailBeforeAnyLoad) {
  WriteRegistry();
  auto too_far = Run({"run", "ebird"}, {"DATABOX_EBIRD_DAYS_BACK=31"});
  EXPECT_EQ(too_far.exit_code, 2) << too_far.out << too_far.err;
  EXPECT_NE(too_far.err.find("variable DATABOX_EBIRD_DAYS_BACK = '31' is not an integer from 1 "
                             "to 30"),
            std::string::npos)
      << too_far.err;
  EXPECT_NE(too_far.err.find("'days_back'"), std::string::npos) << too_far.err;

  auto not_number = Run({"refresh", "--skip-transform"}, {"DATABOX_GBIF_MAX_RECORDS=lots"});
  EXPECT_EQ(not_number.exit_code, 2) << not_number.out << not_number.err;
  EXPECT_NE(not_number.err.find("'max_records'"), std::string::npos) << not_number.err;
  EXPECT_NE(not_number.err.find("DATABOX_GBIF_MAX_RECORDS = 'lots' is not an integer from 1 to "
                                "10000"),
            std::string::npos)
      << not_number.err;

  auto not_bool = Run({"run", "gbif"}, {"DATABOX_GBIF_PUBLIC_RELEASE=maybe"});
  EXPECT_EQ(not_bool.exit_code, 2) << not_bool.out << not_bool.err;
  EXPECT_NE(not_bool.err.find("'when' = 'maybe' (from DATABOX_GBIF_PUBLIC_RELEASE) is not a "
                              "boolean"),
            std::string::npos)
      << not_bool.err;

  auto bad_smoke = Run({"run", "gbif"}, {"DATABOX_SMOKE=yes"});
  EXPECT_EQ(bad_smoke.exit_code, 2) << bad_smoke.out << bad_smoke.err;
  EXPECT_NE(bad_smoke.err.find("DATABOX_SMOKE='yes' is not valid"), std::string::npos)
      << bad_smoke.err;

  auto bad_limit = Run({"run", "gbif", "--limit", "0"}, {});
  EXPECT_EQ(bad_limit.exit_code, 2) << bad_limit.out << bad_limit.err;
  EXPECT_FALSE(AnythingLoaded());
}

}  // namespace
}  // namespace databox::cli::testing
