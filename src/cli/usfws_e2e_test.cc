// Acceptance test of the USFWS image source (docs/sources.md, "usfws"): `databox run usfws`
// through the built binary, replaying the recording test_smoke__usfws-public-interface.yaml
// (three searches and one media page; the second media page is deliberately absent), then
// reading raw_usfws with pyiceberg, an independent reader.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "cli/binary_test_support.h"
#include "common/test_paths.h"
#include "common/test_util.h"

namespace {

namespace fs = std::filesystem;
namespace test_paths = databox::test_paths;
using databox::cli::testing::Contains;
using databox::cli::testing::RunDatabox;
using databox::cli::testing::RunResult;
using databox::cli::testing::Slurp;
using nlohmann::json;

const fs::path kExampleDir = fs::path(test_paths::SourceDir()) / "examples" / "databox";
const fs::path kRecordings = fs::path(test_paths::RecordingsDir());
const std::string kDefaultRunId =
    "f2b8f0c01e90092680ba9fbd19c287cf9486476d16e1196719a3d0e24b75355a";
const std::string kPage = "https://www.fws.gov/media/berylline-hummingbird";

class UsfwsE2e : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("databox_usfws_" + std::to_string(getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    fs::copy(kExampleDir / "transform", dir_ / "transform", fs::copy_options::recursive);
    std::string text = Slurp(kExampleDir / "databox.toml");
    const std::string replay = "replay = \"../../fixtures/recordings\"";
    const auto at = text.find(replay);
    EXPECT_NE(at, std::string::npos) << "example registry no longer replays recordings";
    if (at != std::string::npos) {
      text.replace(at, replay.size(), "replay = \"" + kRecordings.string() + "\"");
    }
    std::ofstream(dir_ / "databox.toml") << text;
    std::ofstream(dir_ / "targets.csv")
        << "species_code,common_name,scientific_name\nberhum,Berylline Hummingbird,Amazilia "
           "beryllina\n";
  }
  void TearDown() override { fs::remove_all(dir_); }

  RunResult Databox(const std::vector<std::string>& args) {
    std::vector<std::string> full = {"--config", (dir_ / "databox.toml").string()};
    full.insert(full.end(), args.begin(), args.end());
    return RunDatabox(full, {"DATABOX_VENV_DIR=" + test_paths::VenvDir()}, dir_);
  }

  RunResult RunUsfws(const std::vector<std::string>& extra) {
    std::vector<std::string> args = {"run",
                                     "usfws",
                                     "--targets",
                                     (dir_ / "targets.csv").string(),
                                     "--loaded-at",
                                     "2026-08-03T12:00:00Z",
                                     "--detail-workers",
                                     "2",
                                     "--max-images-per-target",
                                     "5"};
    args.insert(args.end(), extra.begin(), extra.end());
    return Databox(args);
  }

  //! raw_usfws as pyiceberg reads it.
  json ReadTables() {
    return databox::test_util::RunForJsonLine(
        test_paths::VenvDir() + "/bin/python " + test_paths::SourceDir() +
        "/src/cli/testdata/usfws_tables.py databox_lake '" +
        (dir_ / ".databox" / "catalog.sqlite").string() + "' '" +
        (dir_ / ".databox" / "warehouse").string() + "'");
  }

  fs::path dir_;
};

//! The row whose `column` is `value`, or null.
json RowWhere(const json& rows, const std::string& column, const std::string& value) {
  for (const json& row : rows) {
    if (row[column] == value) return row;
  }
  return json();
}

void ExpectSharedRecordValues(const json& r) {
  EXPECT_EQ(r["run_id"], "public-interface-run");
  EXPECT_EQ(r["species_code"], "berhum");
  EXPECT_EQ(r["target_common_name"], "Berylline Hummingbird");
  EXPECT_EQ(r["target_scientific_name"], "Amazilia beryllina");
  EXPECT_EQ(r["discovery_method"], "exact_common_name,exact_scientific_name,species_facet");
  EXPECT_EQ(r["_search_endpoint"],
            "https://www.fws.gov/fws_search/global_search,"
            "https://www.fws.gov/fws_search/search_images");
  EXPECT_EQ(r["search_result_caption"], "Berylline hummingbird perched on a branch");
  EXPECT_EQ(r["search_result_alt_text"], "Berylline hummingbird perched on a branch");
  EXPECT_EQ(r["search_result_credit"], "Aaron Maizlish");
  EXPECT_EQ(r["search_result_width"], 480);
  EXPECT_EQ(r["search_result_height"], 480);
  EXPECT_EQ(r["search_result_published_at"], "2021-08-29T12:00:00Z");
  EXPECT_EQ(r["search_result_mime_label"], "Image");
  EXPECT_EQ(r["_loaded_at"], "2026-08-03T12:00:00+00:00");
  EXPECT_FALSE(r["_dlt_load_id"].is_null());
  EXPECT_FALSE(r["_dlt_id"].is_null());
}

TEST_F(UsfwsE2e, PublicInterfaceRecordingGivesOneRunAndTwoRecords) {
  RunResult run = RunUsfws({"--run-id", "public-interface-run"});
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  // The missing page: six attempts, the waits of the schedule (recorded, not slept, in replay).
  EXPECT_TRUE(Contains(run.out, "retry waits recorded, not slept: 1, 2, 4, 8, 16 s")) << run.out;
  EXPECT_TRUE(Contains(run.out, "1 image record(s) kept as unavailable_after_retries")) << run.out;

  const json tables = ReadTables();
  ASSERT_TRUE(tables.is_object());
  const json& runs = tables["image_search_runs"]["rows"];
  const json& records = tables["image_records"]["rows"];
  ASSERT_EQ(runs.size(), 1u) << runs.dump();
  ASSERT_EQ(records.size(), 2u) << records.dump();

  const json& r = runs[0];
  EXPECT_EQ(r["run_id"], "public-interface-run");
  EXPECT_EQ(r["status"], "complete");
  EXPECT_EQ(r["target_species_count"], 1);
  EXPECT_EQ(r["completed_target_species_count"], 1);
  EXPECT_EQ(r["record_count"], 2);
  EXPECT_EQ(r["page_size"], 100);
  EXPECT_EQ(r["max_images_per_target"], 5);
  EXPECT_EQ(r["request_max_attempts"], 6);
  EXPECT_EQ(r["detail_worker_count"], 2);
  EXPECT_EQ(r["search_endpoint"],
            "[\"https://www.fws.gov/fws_search/search_images\","
            "\"https://www.fws.gov/fws_search/global_search\"]");
  EXPECT_EQ(r["_loaded_at"], "2026-08-03T12:00:00+00:00");
  EXPECT_TRUE(r["started_at"].is_string());
  EXPECT_TRUE(r["completed_at"].is_string());

  const json ok = RowWhere(records, "media_id", "berylline-hummingbird-0");
  ASSERT_TRUE(ok.is_object()) << records.dump();
  ExpectSharedRecordValues(ok);
  EXPECT_EQ(ok["source_page_url"], kPage + "-0");
  EXPECT_EQ(ok["search_result_page_href"], "/media/berylline-hummingbird-0");
  EXPECT_EQ(ok["search_result_title"], "Berylline hummingbird");
  EXPECT_EQ(ok["search_result_image_url"],
            "https://www.fws.gov/sites/default/files/styles/large_square/public/images/2024-06/"
            "berylline-hummingbird.png?h=6319aca6&itok=sVGXggEM");
  EXPECT_EQ(ok["detail_fetch_status"], "ok");
  EXPECT_EQ(ok["source_title"], "Berylline hummingbird perched on a branch");
  EXPECT_EQ(ok["source_caption"], "Berylline hummingbird perched on a branch");
  EXPECT_EQ(ok["source_alt_text"], "Berylline hummingbird perched on a branch");
  EXPECT_EQ(ok["source_creator"], "Aaron Maizlish");
  EXPECT_EQ(ok["source_license"], "Public Domain");
  EXPECT_TRUE(ok["source_license_url"].is_null());
  EXPECT_EQ(ok["source_published_at"], "2021-08-29");
  EXPECT_EQ(ok["source_created_text"], "08/29/2021 Date Shot/Created");
  EXPECT_EQ(ok["source_media_type"], "Image");
  EXPECT_EQ(ok["source_mime_type"], "image/png");
  EXPECT_EQ(ok["source_image_medium_url"],
            "https://www.fws.gov/sites/default/files/styles/max_650x650/public/images/2024-06/"
            "berylline-hummingbird.png?itok=DggH5Aim");
  EXPECT_EQ(ok["source_image_medium_width"], 650);
  EXPECT_EQ(ok["source_image_medium_height"], 650);
  EXPECT_EQ(ok["source_image_original_url"],
            "https://www.fws.gov/sites/default/files/images/2024-06/berylline-hummingbird.png");
  EXPECT_EQ(ok["source_image_original_width"], 1215);
  EXPECT_EQ(ok["source_image_original_height"], 1215);
  EXPECT_EQ(ok["scientific_name_tags_json"], "[\"Amazilia beryllina\"]");
  EXPECT_EQ(ok["species_tag_urls_json"],
            "[\"https://www.fws.gov/species/berylline-hummingbird-amazilia-beryllina\"]");
  EXPECT_EQ(ok["subject_tags_json"],
            "[\"Birds\",\"Migratory birds\",\"Neotropical birds\",\"Perching birds\","
            "\"Pollinators\"]");

  const json missing = RowWhere(records, "media_id", "berylline-hummingbird");
  ASSERT_TRUE(missing.is_object()) << records.dump();
  ExpectSharedRecordValues(missing);
  EXPECT_EQ(missing["source_page_url"], kPage);
  EXPECT_EQ(missing["search_result_title"], "Berylline Hummingbird");
  EXPECT_EQ(missing["search_result_image_url"],
            "https://www.fws.gov/sites/default/files/styles/large_square/public/images/2024-06/"
            "berylline-hummingbird-by-aaron-maizlish-cc.jpg?h=c3635fa2&itok=lOIrYYNW");
  EXPECT_EQ(missing["detail_fetch_status"], "unavailable_after_retries");
  for (const auto& [column, value] : missing.items()) {
    if (column.starts_with("source_") && column != "source_page_url") {
      EXPECT_TRUE(value.is_null()) << column;
    }
  }
  EXPECT_EQ(missing["scientific_name_tags_json"], "[]");
  EXPECT_EQ(missing["species_tag_urls_json"], "[]");
  EXPECT_EQ(missing["subject_tags_json"], "[]");

  // Columns in the documented order, then the loader's.
  std::vector<std::string> record_columns;
  for (const json& field : tables["image_records"]["fields"]) record_columns.push_back(field[0]);
  ASSERT_EQ(record_columns.size(), 41u);
  EXPECT_EQ(record_columns[0], "run_id");
  EXPECT_EQ(record_columns[1], "species_code");
  EXPECT_EQ(record_columns[4], "media_id");
  EXPECT_EQ(record_columns[6], "source_page_url");
  EXPECT_EQ(record_columns[7], "search_result_page_href");
  EXPECT_EQ(record_columns[17], "detail_fetch_status");
  EXPECT_EQ(record_columns[34], "scientific_name_tags_json");
  EXPECT_EQ(record_columns[37], "_search_endpoint");
  EXPECT_EQ(record_columns[38], "_loaded_at");
  EXPECT_EQ(record_columns[39], "_dlt_load_id");
  EXPECT_EQ(record_columns[40], "_dlt_id");
  EXPECT_EQ(tables["image_search_runs"]["fields"][0][0], "run_id");
  EXPECT_EQ(tables["image_search_runs"]["fields"][12][0], "_loaded_at");

  // Types and keys as the spec gives them: text, bigint (long), timestamptz; NOT NULL on keys.
  for (const json& field : tables["image_search_runs"]["fields"]) {
    const std::string name = field[0];
    const std::string type = field[1];
    if (name == "started_at" || name == "completed_at" || name == "_loaded_at") {
      EXPECT_EQ(type, "timestamptz") << name;
    } else if (name.ends_with("_count") || name == "page_size" || name == "max_images_per_target" ||
               name == "request_max_attempts") {
      EXPECT_EQ(type, "long") << name;
    } else {
      EXPECT_EQ(type, "string") << name;
    }
    EXPECT_EQ(field[2].get<bool>(), name == "run_id" || name == "_dlt_load_id" || name == "_dlt_id")
        << name;
  }
  for (const json& field : tables["image_records"]["fields"]) {
    const std::string name = field[0];
    const std::string type = field[1];
    if (name == "_loaded_at") {
      EXPECT_EQ(type, "timestamptz");
    } else if (name.ends_with("_width") || name.ends_with("_height")) {
      EXPECT_EQ(type, "long") << name;
    } else {
      EXPECT_EQ(type, "string") << name;
    }
    const bool key = name == "run_id" || name == "species_code" || name == "source_page_url" ||
                     name == "_dlt_load_id" || name == "_dlt_id";
    EXPECT_EQ(field[2].get<bool>(), key) << name;
  }
}

TEST_F(UsfwsE2e, DefaultRunIdAndASecondLoadMerges) {
  RunResult first = RunUsfws({});
  ASSERT_EQ(first.exit_code, 0) << first.out << first.err;
  EXPECT_TRUE(Contains(first.out, "run id " + kDefaultRunId)) << first.out;
  RunResult second = RunUsfws({});
  ASSERT_EQ(second.exit_code, 0) << second.out << second.err;
  const json tables = ReadTables();
  ASSERT_TRUE(tables.is_object());
  ASSERT_EQ(tables["image_search_runs"]["rows"].size(), 1u);
  EXPECT_EQ(tables["image_search_runs"]["rows"][0]["run_id"], kDefaultRunId);
  ASSERT_EQ(tables["image_records"]["rows"].size(), 2u);
  for (const json& row : tables["image_records"]["rows"]) EXPECT_EQ(row["run_id"], kDefaultRunId);
  EXPECT_EQ(tables["_dlt_load_status"]["rows"].size(), 2u);  // two loads, both successful
}

TEST_F(UsfwsE2e, InputsAreCheckedBeforeAnythingRuns) {
  std::ofstream(dir_ / "old.txt") << "berhum Berylline Hummingbird\n";
  RunResult old_format = Databox({"run", "usfws", "--targets", (dir_ / "old.txt").string()});
  EXPECT_EQ(old_format.exit_code, 2) << old_format.err;
  EXPECT_TRUE(Contains(old_format.err,
                       "the header must be 'species_code,common_name,"
                       "scientific_name'"))
      << old_format.err;
  RunResult none = Databox({"run", "usfws"});
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_TRUE(Contains(none.err, "--targets FILE")) << none.err;
  EXPECT_FALSE(Contains(none.err, "#")) << none.err;  // no issue numbers
  RunResult range = RunUsfws({"--detail-workers", "5"});
  EXPECT_EQ(range.exit_code, 2) << range.err;
  RunResult time = Databox({"run", "usfws", "--targets", (dir_ / "targets.csv").string(),
                            "--loaded-at", "2026-08-03 12:00"});
  EXPECT_EQ(time.exit_code, 2);
  EXPECT_TRUE(Contains(time.err, "not an ISO-8601 UTC time")) << time.err;
  RunResult other = Databox({"run", "ebird", "--run-id", "x"});
  EXPECT_EQ(other.exit_code, 2);
  EXPECT_TRUE(Contains(other.err, "apply to targeted sources")) << other.err;
  EXPECT_FALSE(fs::exists(dir_ / ".databox" / "loads" / "usfws"));  // no load package was made
}

}  // namespace
