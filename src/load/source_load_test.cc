// End-to-end loads of the example registry's sources from the real recordings, checked
// against the schemas dlt inferred from the same responses (the .ambr oracle).
#include "load/source_load.h"

#include <gtest/gtest.h>
#include <unistd.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "common/test_paths.h"
#include "duck/connection.h"
#include "duck/database.h"
#include "iceberg/table.h"
#include "load/test_util.h"
#include "platform/workspace.h"
#include "registry/registry.h"
#include "source/file_source.h"
#include "sources/avonet/avonet_test_support.h"

namespace databox::load {
namespace {

namespace fs = std::filesystem;

//! The YAML document inside a syrupy .ambr snapshot (between the ''' lines, indented by 2).
YAML::Node ReadAmbr(const std::string& source) {
  std::ifstream in(test_paths::RecordingsDir() + "/" + source + "/dlt_schema.ambr");
  std::string line, yaml;
  bool inside = false;
  while (std::getline(in, line)) {
    if (line == "  '''") {
      if (inside) break;
      inside = true;
      continue;
    }
    if (inside) yaml += (line.size() >= 2 ? line.substr(2) : "") + "\n";
  }
  return YAML::Load(yaml);
}

//! The Iceberg type we promise for a dlt data type (docs/normalization.md).
std::string IcebergTypeOf(const std::string& dlt_type) {
  static const std::map<std::string, std::string> kMap = {
      {"text", "string"},  {"bigint", "long"},           {"double", "double"},
      {"bool", "boolean"}, {"timestamp", "timestamptz"}, {"date", "date"},
      {"json", "string"},  {"complex", "string"}};
  auto it = kMap.find(dlt_type);
  return it == kMap.end() ? "unmapped:" + dlt_type : it->second;
}

class SourceLoadTest : public testing::ExampleWorkspaceTest {
 protected:
  SourceLoadTest() : ExampleWorkspaceTest("databox_load") {}

  SourceLoadResult Load(const std::string& name) {
    const registry::Source* source = registry_.FindSource(name);
    EXPECT_NE(source, nullptr) << name;
    auto result = LoadSource(*workspace_, *source);
    EXPECT_TRUE(result) << result.error().message;
    return result ? *result : SourceLoadResult{};
  }

  //! Copies the recordings of `source` into the test folder, applying `edit` to each file's
  //! text, and points the registry's replay at the copy.
  void UseEditedRecordings(const std::string& source,
                           const std::function<std::string(std::string)>& edit) {
    const fs::path root = dir_ / "recordings";
    const fs::path from = fs::path(test_paths::RecordingsDir()) / source;
    fs::create_directories(root / source);
    for (const auto& file : fs::directory_iterator(from)) {
      std::ifstream in(file.path());
      std::stringstream text;
      text << in.rdbuf();
      std::ofstream(root / source / file.path().filename()) << edit(text.str());
    }
    registry_.project.http.replay_dir = root;
    for (registry::Source& s : registry_.sources) s.replay_dir = root / s.name;
    registry_.project.http.retries = 0;
  }

  iceberg::Table Table(const std::string& ns, const std::string& table) {
    auto t = iceberg::Table::Load(workspace_->catalog(), workspace_->file_io(),
                                  iceberg::TableIdentifier{{ns}, table});
    EXPECT_TRUE(t) << ns << "." << table << ": " << t.error().message;
    return std::move(*t);
  }

  //! Runs `sql_over_t` with `t` bound to the table's live rows; returns the first cell.
  std::string Scalar(const std::string& ns, const std::string& table,
                     const std::string& sql_over_t) {
    return testing::ScalarOver(Table(ns, table), sql_over_t);
  }

  void ExpectSchemaMatchesAmbr(const std::string& source) {
    const YAML::Node tables = ReadAmbr(source)["tables"];
    ASSERT_TRUE(tables.IsMap()) << source;
    int compared = 0;
    for (const auto& entry : tables) {
      const std::string name = entry.first.as<std::string>();
      if (name.rfind("_dlt_", 0) == 0) continue;  // dlt's own bookkeeping tables
      SCOPED_TRACE(source + "." + name);
      iceberg::Table table = Table("raw_" + source, name);
      const iceberg::Schema& schema = table.schema();
      std::set<std::string> expected_columns;
      std::set<int32_t> expected_keys;
      for (const auto& column : entry.second["columns"]) {
        const std::string col = column.first.as<std::string>();
        const YAML::Node spec = column.second;
        expected_columns.insert(col);
        const iceberg::NestedField* field = schema.FindFieldByName(col);
        if (field == nullptr) {
          ADD_FAILURE() << "missing column " << col;
          continue;
        }
        EXPECT_EQ(field->type.ToString(), IcebergTypeOf(spec["data_type"].as<std::string>()))
            << col;
        const bool nullable = !spec["nullable"] || spec["nullable"].as<bool>();
        EXPECT_EQ(field->required, !nullable) << col;
        if (spec["primary_key"] && spec["primary_key"].as<bool>()) expected_keys.insert(field->id);
      }
      for (const auto& field : schema.fields()) {
        EXPECT_TRUE(expected_columns.contains(field.name)) << "extra column " << field.name;
      }
      const auto& ids = schema.identifier_field_ids();
      EXPECT_EQ(std::set<int32_t>(ids.begin(), ids.end()), expected_keys);
      ++compared;
    }
    EXPECT_GT(compared, 0);
  }
};

TEST_F(SourceLoadTest, NoaaMatchesDltSchema) {
  Load("noaa");
  ExpectSchemaMatchesAmbr("noaa");
}
TEST_F(SourceLoadTest, GbifMatchesDltSchema) {
  Load("gbif");
  ExpectSchemaMatchesAmbr("gbif");
}
TEST_F(SourceLoadTest, EarthquakesMatchDltSchema) {
  Load("usgs_earthquakes");
  ExpectSchemaMatchesAmbr("usgs_earthquakes");
}
TEST_F(SourceLoadTest, XenoCantoMatchesDltSchema) {
  Load("xeno_canto");
  ExpectSchemaMatchesAmbr("xeno_canto");
}

//! Columns (with Iceberg types) that the source pack promises (docs/registry.md, the example) for a
//! table; extra columns allowed.
void ExpectColumns(const iceberg::Schema& schema,
                   const std::vector<std::pair<std::string, std::string>>& expected) {
  for (const auto& [name, type] : expected) {
    const iceberg::NestedField* field = schema.FindFieldByName(name);
    if (field == nullptr) {
      ADD_FAILURE() << "missing column " << name;
      continue;
    }
    if (!type.empty()) {
      EXPECT_EQ(field->type.ToString(), type) << name;
    }
  }
}

TEST_F(SourceLoadTest, EbirdAndUsgsHaveTheTablesAndColumnsOfSourcesMd) {
  Load("ebird");
  ExpectColumns(Table("raw_ebird", "recent_observations").schema(),
                {{"sub_id", "string"},
                 {"species_code", "string"},
                 {"com_name", "string"},
                 {"sci_name", "string"},
                 {"loc_id", "string"},
                 {"loc_name", "string"},
                 {"obs_dt", ""},
                 {"how_many", "long"},
                 {"lat", "double"},
                 {"lng", "double"},
                 {"obs_valid", "boolean"},
                 {"obs_reviewed", "boolean"},
                 {"location_private", "boolean"},
                 {"exotic_category", ""},
                 {"_region_code", "string"},
                 {"_loaded_at", "timestamptz"},
                 {"_observation_date", "timestamptz"},
                 {"_is_notable", "boolean"}});
  const std::vector<int32_t> keys =
      Table("raw_ebird", "recent_observations").schema().identifier_field_ids();
  EXPECT_EQ(keys.size(), 2u);
  EXPECT_EQ(Scalar("raw_ebird", "notable_observations", "SELECT bool_and(_is_notable) FROM t"),
            "true");
  ExpectColumns(Table("raw_ebird", "species_list").schema(), {{"species_code", "string"},
                                                              {"region", "string"},
                                                              {"order", "long"},
                                                              {"_loaded_at", "timestamptz"}});
  EXPECT_EQ(Scalar("raw_ebird", "species_list", "SELECT min(\"order\") FROM t"), "0");
  ExpectColumns(Table("raw_ebird", "hotspots").schema(), {{"loc_id", "string"},
                                                          {"num_species_all_time", "long"},
                                                          {"lat", "double"},
                                                          {"lng", "double"},
                                                          {"_loaded_at", "timestamptz"},
                                                          {"_region_code", "string"}});

  Load("usgs");
  ExpectColumns(Table("raw_usgs", "daily_values").schema(), {{"site_no", "string"},
                                                             {"site_name", "string"},
                                                             {"latitude", "double"},
                                                             {"longitude", "double"},
                                                             {"parameter_cd", "string"},
                                                             {"parameter_name", "string"},
                                                             {"unit_cd", "string"},
                                                             {"statistic_cd", "string"},
                                                             {"observation_date", "string"},
                                                             {"value", "double"},
                                                             {"qualifier", "string"},
                                                             {"_state_cd", "string"},
                                                             {"_loaded_at", "timestamptz"}});
  EXPECT_EQ(Table("raw_usgs", "daily_values").schema().identifier_field_ids().size(), 4u);
  ExpectColumns(Table("raw_usgs", "sites").schema(), {{"site_no", "string"},
                                                      {"site_name", "string"},
                                                      {"site_type", "string"},
                                                      {"latitude", "double"},
                                                      {"longitude", "double"},
                                                      {"county_cd", "string"},
                                                      {"state_cd", "string"},
                                                      {"huc_cd", "string"},
                                                      {"drain_area_va", "double"},
                                                      {"begin_date", "string"},
                                                      {"end_date", "string"},
                                                      {"_loaded_at", "timestamptz"}});
  EXPECT_EQ(Scalar("raw_usgs", "sites", "SELECT count(*) = count(DISTINCT site_no) FROM t"),
            "true");
}

//! The body of every recorded response to an RDB request (format=rdb) in the copied recordings,
//! decoded by yaml-cpp (not by our replay).
std::vector<std::string> RecordedRdbBodies(const fs::path& folder) {
  std::vector<std::string> bodies;
  for (const auto& file : fs::directory_iterator(folder)) {
    const YAML::Node doc = YAML::LoadFile(file.path().string());
    for (const auto& interaction : doc["interactions"]) {
      if (interaction["request"]["uri"].as<std::string>().find("format=rdb") == std::string::npos)
        continue;
      bodies.push_back(interaction["response"]["body"]["string"].as<std::string>());
    }
  }
  return bodies;
}

TEST_F(SourceLoadTest, RdbRowsWithFewerFieldsThanTheHeaderAreSkippedAndReported) {
  // Two rows cut short are put before the first site of every recorded sites response (the text
  // is YAML double-quoted, so "\n" and "\t" are escapes there).
  const std::string first_site = R"(\nUSGS\t01106000\t)";
  const std::string cut_short = R"(USGS\t09999998\nUSGS\t09999999\tCUT SHORT\n)";
  const int64_t short_per_body = 2;
  UseEditedRecordings("usgs", [&](std::string text) {
    const auto pos = text.find(first_site);
    if (pos != std::string::npos) text.insert(pos + 2, cut_short);
    return text;
  });
  const std::vector<std::string> bodies = RecordedRdbBodies(dir_ / "recordings" / "usgs");
  ASSERT_FALSE(bodies.empty());
  // Expected from the decoded bodies: the physical line of the first cut-short row, and the
  // distinct sites of the rows with as many fields as the header.
  std::set<int64_t> first_lines;
  std::set<std::string> sites;
  for (const std::string& body : bodies) {
    const auto at = body.find("USGS\t09999998\n");
    ASSERT_NE(at, std::string::npos) << "the edit missed a recorded sites response";
    first_lines.insert(1 + std::count(body.begin(), body.begin() + at, '\n'));
    std::stringstream lines(body);
    std::string line;
    std::size_t header_fields = 0;
    while (std::getline(lines, line)) {
      const std::size_t fields = 1 + std::count(line.begin(), line.end(), '\t');
      if (line.starts_with("agency_cd\t")) header_fields = fields;
      if (line.starts_with("USGS\t") && fields == header_fields) {
        sites.insert(line.substr(5, line.find('\t', 5) - 5));
      }
    }
  }
  ASSERT_EQ(first_lines.size(), 1u) << "the recordings disagree on where the first site is";
  ASSERT_FALSE(sites.empty());

  const SourceLoadResult result = Load("usgs");
  // One sites request (one state, no window on /site): one response, so its two short rows.
  const std::string expected = "source usgs, resource sites: skipped " +
                               std::to_string(short_per_body) +
                               " RDB row(s) with fewer fields than the header (first at line " +
                               std::to_string(*first_lines.begin()) + " of GET https://";
  int reported = 0;
  for (const std::string& note : result.notes) {
    if (note.starts_with(expected)) ++reported;
  }
  EXPECT_EQ(reported, 1) << "notes: " << ::testing::PrintToString(result.notes);
  EXPECT_EQ(Scalar("raw_usgs", "sites", "SELECT count(*) FROM t"), std::to_string(sites.size()));
  EXPECT_EQ(Scalar("raw_usgs", "sites",
                   "SELECT count(*) FROM t WHERE site_no IN ('09999998', '09999999')"),
            "0");
}

TEST_F(SourceLoadTest, AppendTablesDoubleOnReload) {
  auto& noaa = *const_cast<registry::Source*>(registry_.FindSource("noaa"));
  for (auto& resource : noaa.resources) {
    if (resource.name == "stations")
      resource.write_disposition = registry::WriteDisposition::kAppend;
  }
  Load("noaa");
  const std::string once = Scalar("raw_noaa", "stations", "SELECT count(*) FROM t");
  ASSERT_NE(once, "0");
  Load("noaa");
  EXPECT_EQ(Scalar("raw_noaa", "stations", "SELECT count(*) FROM t"),
            std::to_string(2 * std::stoll(once)));
}

// A later load with a value of another type meets the columns the first load made, as a later
// record of one load does: the values that do not fit the column go to dlt's variant column.
TEST_F(SourceLoadTest, ALaterLoadWithDecimalsMakesAVariantColumnNotAnError) {
  auto& gbif = *const_cast<registry::Source*>(registry_.FindSource("gbif"));
  registry::Resource& occurrences = gbif.resources.front();
  ASSERT_EQ(occurrences.name, "occurrences");
  occurrences.write_disposition = registry::WriteDisposition::kAppend;
  occurrences.columns.clear();
  auto transform = [&](const std::string& temp_c) {
    occurrences.transform =
        "SELECT TRY_CAST(record->>'$.key' AS BIGINT) AS key, " + temp_c + " AS temp_c FROM records";
  };
  transform("20");
  Load("gbif");
  const std::string rows = Scalar("raw_gbif", "occurrences", "SELECT count(*) FROM t");
  ASSERT_NE(rows, "0");
  transform("21.5::DOUBLE");
  Load("gbif");
  const auto n = std::stoll(rows);
  EXPECT_EQ(Scalar("raw_gbif", "occurrences", "SELECT count(*) || ' ' || sum(temp_c) FROM t"),
            std::to_string(2 * n) + " " + std::to_string(20 * n));
  EXPECT_EQ(Scalar("raw_gbif", "occurrences",
                   "SELECT count(temp_c__v_double) || ' ' || min(temp_c__v_double) || ' ' || "
                   "max(temp_c__v_double) FROM t"),
            std::to_string(n) + " 21.5 21.5");
  EXPECT_EQ(Table("raw_gbif", "occurrences").schema().FindFieldByName("temp_c")->type.ToString(),
            "long");
}

TEST_F(SourceLoadTest, TargetedSourcesAndResumedFileSourcesAreRefusedBeforeAnyPackage) {
  auto usfws = LoadSource(*workspace_, *registry_.FindSource("usfws"));
  ASSERT_FALSE(usfws);
  EXPECT_EQ(usfws.error().kind, ErrorKind::kConfig);
  EXPECT_EQ(usfws.error().message,
            "source usfws runs only with caller-supplied targets: `databox run usfws --targets "
            "FILE`");

  SourceLoadOptions resume;
  resume.resume = true;
  auto avonet = LoadSource(*workspace_, *registry_.FindSource("avonet"), resume);
  ASSERT_FALSE(avonet);
  EXPECT_EQ(avonet.error().kind, ErrorKind::kConfig);
  EXPECT_EQ(avonet.error().message,
            "source avonet: --resume applies to HTTP sources; run it again");

  EXPECT_FALSE(fs::exists(workspace_->loads_dir() / "usfws"));
  EXPECT_FALSE(fs::exists(workspace_->loads_dir() / "avonet"));
}

TEST_F(SourceLoadTest, ReloadingIsIdempotentForMergeAndReplaceAndWritesOneStatusRowPerLoad) {
  const SourceLoadResult first = Load("noaa");
  ASSERT_FALSE(first.tables.empty());
  std::map<std::string, std::string> keys_after_first, rows_after_first;
  for (const char* t : {"daily_weather", "stations", "datasets"}) {
    rows_after_first[t] = Scalar("raw_noaa", t, "SELECT count(*) FROM t");
  }
  keys_after_first["daily_weather"] =
      Scalar("raw_noaa", "daily_weather",
             "SELECT string_agg(date || station || datatype, ',' ORDER BY ALL) FROM t");
  const SourceLoadResult second = Load("noaa");
  EXPECT_NE(first.load_id, second.load_id);
  for (const char* t : {"daily_weather", "stations", "datasets"}) {
    EXPECT_EQ(Scalar("raw_noaa", t, "SELECT count(*) FROM t"), rows_after_first[t]) << t;
  }
  EXPECT_EQ(Scalar("raw_noaa", "daily_weather",
                   "SELECT string_agg(date || station || datatype, ',' ORDER BY ALL) FROM t"),
            keys_after_first["daily_weather"]);
  // replace: only the last load's rows remain.
  EXPECT_EQ(Scalar("raw_noaa", "datasets", "SELECT string_agg(DISTINCT _dlt_load_id, ',') FROM t"),
            second.load_id);
  // One status row per load, status 0, rows as the load reported.
  EXPECT_EQ(Scalar("raw_noaa", "_dlt_load_status", "SELECT count(*) FROM t"), "2");
  EXPECT_EQ(
      Scalar("raw_noaa", "_dlt_load_status",
             "SELECT rows_loaded FROM t WHERE load_id = '" + second.load_id + "' AND status = 0"),
      std::to_string(second.rows_loaded));
  EXPECT_EQ(Scalar("raw_noaa", "_dlt_loads", "SELECT count(*) FROM t"), "2");
}

TEST_F(SourceLoadTest, MergeOnReadReloadsKeepOneRowPerKeyThroughDeleteFiles) {
  for (const char* name : {"noaa", "gbif"}) {
    auto& source = *const_cast<registry::Source*>(registry_.FindSource(name));
    for (auto& resource : source.resources) {
      if (resource.write_disposition == registry::WriteDisposition::kMerge) {
        resource.merge_mode = registry::MergeMode::kMergeOnRead;
      }
    }
    const std::string ns = std::string("raw_") + name;
    Load(name);
    auto tables = workspace_->catalog().ListTables({ns});
    ASSERT_TRUE(tables) << tables.error().message;
    std::map<std::string, std::string> rows;
    for (const auto& ident : *tables) {
      rows[ident.name] = Scalar(ns, ident.name, "SELECT count(*) FROM t");
    }
    Load(name);
    size_t delete_files = 0;
    for (const auto& ident : *tables) {
      if (ident.name.starts_with("_dlt_")) continue;  // append-only bookkeeping
      EXPECT_EQ(Scalar(ns, ident.name, "SELECT count(*) FROM t"), rows[ident.name])
          << ns << "." << ident.name;
      auto live = Table(ns, ident.name).Live();
      ASSERT_TRUE(live) << live.error().message;
      delete_files += live->deletes.size();
    }
    // The second load replaced every merged row by position deletes, rewriting no file.
    EXPECT_GT(delete_files, 0u) << name;
  }
  EXPECT_EQ(Scalar("raw_gbif", "occurrences", "SELECT count(*) = count(DISTINCT key) FROM t"),
            "true");
}

//! Failed loads: a copy of the recordings edited to fail in one way; nothing may be committed.
class FailedLoadTest : public SourceLoadTest {
 protected:
  //! Snapshot id of every raw_<source> table (-1 for a table without one).
  std::map<std::string, int64_t> Snapshots(const std::string& source) {
    std::map<std::string, int64_t> out;
    auto tables = workspace_->catalog().ListTables({"raw_" + source});
    if (!tables) return out;
    for (const auto& ident : *tables) {
      auto t = workspace_->catalog().LoadTable(ident);
      out[ident.name] =
          t && t->metadata.current_snapshot_id ? *t->metadata.current_snapshot_id : -1;
    }
    return out;
  }
  //! `phase`: the phase the load reported last (the one a run records the failure in).
  void ExpectFailsAndCommitsNothing(const std::string& source, const std::string& expected_text,
                                    Phase phase) {
    const auto before = Snapshots(source);
    ASSERT_FALSE(before.empty());
    const registry::Source* s = registry_.FindSource(source);
    SourceLoadOptions options;
    std::optional<Phase> last;
    options.on_progress = [&](const LoadProgress& progress) { last = progress.phase; };
    auto result = LoadSource(*workspace_, *s, options);
    ASSERT_FALSE(result) << "the load should have failed";
    EXPECT_EQ(last, phase) << result.error().message;
    const std::string message = result.error().message;
    EXPECT_NE(message.find("source " + source), std::string::npos) << message;
    EXPECT_NE(message.find(expected_text), std::string::npos) << message;
    EXPECT_EQ(Snapshots(source), before) << "a failed load changed a table";
    EXPECT_EQ(Scalar("raw_" + source, "_dlt_load_status", "SELECT count(*) FROM t"), "1");
  }
};

TEST_F(FailedLoadTest, Http500AfterRetriesCommitsNothingAndNamesTheRequest) {
  Load("noaa");
  UseEditedRecordings("noaa", [](std::string text) {
    return std::regex_replace(text, std::regex("code: 200"), "code: 500");
  });
  ExpectFailsAndCommitsNothing("noaa", "https://www.ncei.noaa.gov/cdo-web/api/v2/",
                               Phase::kExtract);
}

TEST_F(FailedLoadTest, MalformedJsonCommitsNothing) {
  Load("noaa");
  UseEditedRecordings("noaa", [](std::string text) {
    return std::regex_replace(text, std::regex("string: '\\{"), "string: '{{");
  });
  ExpectFailsAndCommitsNothing("noaa", "resource", Phase::kExtract);
}

// The pages are normalized while later ones are still fetched: a record the normalizer refuses
// stops the load in the normalize phase, not in extraction.
TEST_F(FailedLoadTest, ARecordTheNormalizerRefusesFailsTheNormalizePhase) {
  Load("gbif");
  UseEditedRecordings("gbif", [](std::string text) {
    return std::regex_replace(text, std::regex("\"key\": 5938028359"), "\"key\": null");
  });
  ExpectFailsAndCommitsNothing("gbif", "is null in this record", Phase::kNormalize);
}

// A primary key no record has fails the load before any commit, whatever the write disposition,
// naming where the registry declares the key and the table.
TEST_F(FailedLoadTest, APrimaryKeyNoRecordOfTheFirstBatchHasCommitsNothing) {
  Load("noaa");
  auto& noaa = *const_cast<registry::Source*>(registry_.FindSource("noaa"));
  for (registry::Resource& resource : noaa.resources) {
    if (resource.name != "datasets") continue;
    ASSERT_EQ(resource.write_disposition, registry::WriteDisposition::kReplace);
    resource.primary_key = {"dataset_idd"};
    resource.primary_key_at = "databox.toml:290";
  }
  ExpectFailsAndCommitsNothing("noaa",
                               "databox.toml:290: source noaa, resource datasets: primary_key "
                               "column 'dataset_idd' of table raw_noaa.datasets is in no record "
                               "of the first batch",
                               Phase::kNormalize);
}

TEST_F(FailedLoadTest, RejectedDuplicateKeysCommitNothingAndResumeFinishesWithoutFetching) {
  Load("gbif");
  // The recorded page holds two occurrences; give the second the first one's key.
  UseEditedRecordings("gbif", [](std::string text) {
    return std::regex_replace(text, std::regex("\"key\": 5938028359"), "\"key\": 5938027803");
  });
  auto& gbif = *const_cast<registry::Source*>(registry_.FindSource("gbif"));
  gbif.resources.front().merge_duplicates = registry::DuplicatePolicy::kReject;
  ExpectFailsAndCommitsNothing("gbif", "more than once", Phase::kNormalize);

  // The pages are in the failed package: --resume finishes it without any request (the replay
  // folder is emptied to prove it) once the policy allows duplicates.
  gbif.resources.front().merge_duplicates = registry::DuplicatePolicy::kLastWins;
  fs::remove_all(dir_ / "recordings");
  fs::create_directories(dir_ / "recordings" / "gbif");
  SourceLoadOptions resume;
  resume.resume = true;
  auto resumed = LoadSource(*workspace_, gbif, resume);
  ASSERT_TRUE(resumed) << resumed.error().message;
  EXPECT_EQ(resumed->requests, 0);
  EXPECT_EQ(Scalar("raw_gbif", "_dlt_load_status", "SELECT count(*) FROM t"), "2");
  EXPECT_EQ(Scalar("raw_gbif", "_dlt_load_status",
                   "SELECT count(*) FROM t WHERE load_id = '" + resumed->load_id + "'"),
            "1");
  // Merge kept one row per key: the first load's two keys, the resumed load's one.
  EXPECT_EQ(Scalar("raw_gbif", "occurrences", "SELECT count(*) = count(DISTINCT key) FROM t"),
            "true");
}

//! AVONET: a synthetic workbook with the real 31-column header; the registry's pinned size,
//! MD5 and row count are set to the synthetic file's, as a real snapshot would pin them.
class AvonetLoadTest : public SourceLoadTest {
 protected:
  fs::path Workbook(const std::vector<source::testing::Cells>& rows,
                    std::vector<std::string> header = source::testing::Header(), bool pin = true) {
    const fs::path path = dir_ / ("avonet_" + std::to_string(++files_) + ".xlsx");
    fs::create_directories(dir_);
    source::testing::WriteXlsx(path, "AVONET2_eBird", header, rows);
    if (pin) {
      auto facts = source::ComputeFileFacts(path);
      EXPECT_TRUE(facts) << facts.error().message;
      registry::Source& avonet = *const_cast<registry::Source*>(registry_.FindSource("avonet"));
      avonet.file->size_bytes = facts->size_bytes;
      avonet.file->md5 = facts->md5;
      avonet.file->row_count = static_cast<int64_t>(rows.size());
    }
    return path;
  }
  Result<SourceLoadResult> LoadFile(const fs::path& path) {
    SourceLoadOptions options;
    options.file = path;
    return LoadSource(*workspace_, *registry_.FindSource("avonet"), options);
  }
  std::size_t Snapshots() {
    auto t = iceberg::Table::Load(workspace_->catalog(), workspace_->file_io(),
                                  iceberg::TableIdentifier{{"raw_avonet"}, "species_traits"});
    return t ? t->History().size() : 0;
  }
  int files_ = 0;
};

TEST_F(AvonetLoadTest, WorkbookLoadsIntoExactlyTheReferenceColumns) {
  auto rows = source::testing::Rows(2);
  rows[1][22] = "YES";  // Inference
  auto loaded = LoadFile(Workbook(rows));
  ASSERT_TRUE(loaded) << loaded.error().message;
  const iceberg::Table table = Table("raw_avonet", "species_traits");
  const iceberg::Schema& schema = table.schema();
  // The reference's columns, in its order, then the loader's own two.
  std::vector<std::tuple<std::string, std::string, bool>> expected;
  for (const source::AvonetTableColumn& c : source::AvonetTableColumns()) {
    expected.emplace_back(c.name, IcebergTypeOf(c.type), !c.nullable);
  }
  expected.emplace_back("_dlt_load_id", "string", true);
  expected.emplace_back("_dlt_id", "string", true);
  std::vector<std::tuple<std::string, std::string, bool>> got;
  for (const iceberg::NestedField& f : schema.fields()) {
    got.emplace_back(f.name, f.type.ToString(), f.required);
  }
  EXPECT_EQ(got, expected);
  ASSERT_EQ(schema.identifier_field_ids().size(), 1u);
  EXPECT_EQ(schema.FindFieldById(schema.identifier_field_ids()[0])->name, "avibase_id");
  // Spot checks of the values, as DuckDB reads them.
  EXPECT_EQ(Scalar("raw_avonet", "species_traits",
                   "SELECT string_agg(source_scientific_name || ':' || inference::VARCHAR || ':' "
                   "|| female_individuals::VARCHAR || ':' || mass_g::VARCHAR || ':' || "
                   "source_file_id::VARCHAR, ',' ORDER BY avibase_id) FROM t"),
            "Genus species1:false:2:248.8:34480856,Genus species2:true:2:248.8:34480856");
  EXPECT_EQ(Scalar("raw_avonet", "species_traits",
                   "SELECT typeof(inference) || ' ' || typeof(loaded_at) || ' ' || "
                   "typeof(complete_measures) FROM t LIMIT 1"),
            "BOOLEAN TIMESTAMP WITH TIME ZONE BIGINT");
}

TEST_F(AvonetLoadTest, BadYesNoOrAMissingRequiredValueNamesRowAndColumnAndCommitsNothing) {
  auto good = LoadFile(Workbook(source::testing::Rows(2)));
  ASSERT_TRUE(good) << good.error().message;
  ASSERT_EQ(Snapshots(), 1u);
  struct Bad {
    std::size_t column;
    std::optional<std::string> value;
    std::string expected;
  };
  const std::vector<Bad> bad = {
      {22, "Y", "value check: row 3 column 'Inference' is 'Y', expected YES or NO"},
      {5, std::nullopt, "value check: row 3 column 'Female' is NA or blank, a value is required"},
      {30, "NA",
       "value check: row 3 column 'Primary.Lifestyle' is NA or blank, a value is required"},
  };
  for (const Bad& b : bad) {
    SCOPED_TRACE(b.expected);
    auto rows = source::testing::Rows(3);
    rows[1][b.column] = b.value;
    auto result = LoadFile(Workbook(rows));
    ASSERT_FALSE(result);
    EXPECT_EQ(result.error().kind, ErrorKind::kData);
    EXPECT_NE(result.error().message.find(b.expected), std::string::npos) << result.error().message;
    EXPECT_EQ(Snapshots(), 1u) << "a failed validation must publish nothing";
    EXPECT_EQ(Scalar("raw_avonet", "species_traits", "SELECT count(*) FROM t"), "2");
  }
}

TEST_F(AvonetLoadTest, ValidWorkbookIsPublishedAsOneReplaceAndBadOnesPublishNothing) {
  auto first = LoadFile(Workbook(source::testing::Rows(3)));
  ASSERT_TRUE(first) << first.error().message;
  ASSERT_EQ(Snapshots(), 1u);
  EXPECT_EQ(Scalar("raw_avonet", "species_traits", "SELECT count(DISTINCT avibase_id) FROM t"),
            "3");

  auto second = LoadFile(Workbook(source::testing::Rows(4)));
  ASSERT_TRUE(second) << second.error().message;
  ASSERT_EQ(Snapshots(), 2u);
  EXPECT_EQ(Scalar("raw_avonet", "species_traits", "SELECT count(*) FROM t"), "4");
  EXPECT_EQ(Table("raw_avonet", "species_traits").History().front().operation(), "overwrite");

  struct Bad {
    std::string name;
    std::function<fs::path()> make;
    std::string expected;
  };
  std::vector<Bad> bad;
  bad.push_back({"wrong header",
                 [&] {
                   auto header = source::testing::Header();
                   header[6] = "Not.A.Column";
                   return Workbook(source::testing::Rows(3), header);
                 },
                 "header"});
  bad.push_back({"duplicate id",
                 [&] {
                   auto rows = source::testing::Rows(3);
                   rows[2][3] = rows[0][3];
                   return Workbook(rows);
                 },
                 "avibase"});
  bad.push_back({"wrong row count",
                 [&] {
                   auto path = Workbook(source::testing::Rows(3));
                   const_cast<registry::Source*>(registry_.FindSource("avonet"))->file->row_count =
                       5;
                   return path;
                 },
                 "row"});
  bad.push_back({"wrong checksum",
                 [&] {
                   auto path = Workbook(source::testing::Rows(3));
                   const_cast<registry::Source*>(registry_.FindSource("avonet"))->file->md5 =
                       "00000000000000000000000000000000";
                   return path;
                 },
                 "md5"});
  for (const Bad& b : bad) {
    SCOPED_TRACE(b.name);
    auto result = LoadFile(b.make());
    ASSERT_FALSE(result);
    std::string message = result.error().message;
    std::transform(message.begin(), message.end(), message.begin(), ::tolower);
    EXPECT_NE(message.find(b.expected), std::string::npos) << result.error().message;
    EXPECT_EQ(Snapshots(), 2u) << "a failed validation must publish nothing";
    EXPECT_EQ(Scalar("raw_avonet", "species_traits", "SELECT count(*) FROM t"), "4");
  }
}

}  // namespace
}  // namespace databox::load
