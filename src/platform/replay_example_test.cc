// Runs every enabled routine resource of examples/databox/databox.toml against the real
// recordings (replay, offline) and checks the record counts against counts this test computes
// itself from the recorded response bodies.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <fstream>
#include <map>
#include <sstream>

#include "common/test_paths.h"
#include "duck/test_support.h"
#include "platform/source_clients.h"
#include "registry/registry.h"
#include "source/extractor.h"

namespace databox::platform {
namespace {

using source::Extractor;
using source::ExtractRecords;
using source::Json;
using source::LoadContext;
using source::ReadPageIndex;
using source::RecordsFromFolder;

const std::filesystem::path kExample =
    std::filesystem::path(test_paths::SourceDir()) / "examples/databox/databox.toml";

std::optional<std::string> NoEnv(const std::string&) { return std::nullopt; }

//! Recorded response bodies of a source, by request URL without its query.
std::map<std::string, std::string> RecordedBodies(const std::filesystem::path& folder) {
  std::map<std::string, std::string> bodies;
  for (const auto& entry : std::filesystem::directory_iterator(folder)) {
    if (entry.path().extension() != ".yaml") continue;
    const YAML::Node cassette = YAML::LoadFile(entry.path().string());
    for (const auto& interaction : cassette["interactions"]) {
      const std::string uri = interaction["request"]["uri"].as<std::string>();
      bodies.emplace(uri.substr(0, uri.find('?')),
                     interaction["response"]["body"]["string"].as<std::string>());
    }
  }
  return bodies;
}

//! The node at a dotted path, written independently of the code under test.
nlohmann::json Navigate(nlohmann::json doc, const std::string& path) {
  std::stringstream steps(path);
  std::string step;
  while (std::getline(steps, step, '.')) doc = doc.contains(step) ? doc[step] : nlohmann::json();
  return doc;
}

//! Data rows of an RDB body: not '#', after the header and format lines, as many fields as the
//! header.
int64_t CountRdbRows(const std::string& body) {
  std::stringstream lines(body);
  std::string line;
  int64_t header_fields = -1, seen = 0, rows = 0;
  while (std::getline(lines, line)) {
    if (line.empty() || line[0] == '#') continue;
    const int64_t fields = std::count(line.begin(), line.end(), '\t') + 1;
    if (seen++ == 0) {
      header_fields = fields;
    } else if (seen > 2 && fields == header_fields) {
      ++rows;
    }
  }
  return rows;
}

struct Expected {
  int64_t extracted = 0;
  int64_t records = 0;
};

Expected ExpectedCounts(const registry::Source& source, const registry::Resource& resource,
                        const std::string& body) {
  if (resource.format == registry::ResponseFormat::kRdb) {
    const int64_t rows = CountRdbRows(body);
    return {rows, rows};
  }
  const nlohmann::json doc = nlohmann::json::parse(body);
  int64_t extracted = 1;
  if (resource.records_path != "$") {
    const nlohmann::json node =
        resource.records_path.empty() ? doc : Navigate(doc, resource.records_path);
    extracted = node.is_array() ? static_cast<int64_t>(node.size()) : 1;
  }
  if (resource.pagination.max_records) {
    extracted = std::min(extracted, *resource.pagination.max_records);
  }
  int64_t records = extracted;
  if (source.name == "ebird" && resource.name == "species_list") records = doc.size();
  if (source.name == "usgs" && resource.name == "daily_values") {
    records = 0;
    for (const auto& series : doc["value"]["timeSeries"]) {
      records += series["values"][0]["value"].size();
    }
  }
  return {extracted, records};
}

LoadContext FixedContext() {
  LoadContext ctx;
  ctx.load_id = "1771113600.5";
  ctx.loaded_at = std::chrono::sys_days(std::chrono::year(2026) / 2 / 15);
  ctx.today = std::chrono::sys_days(std::chrono::year(2026) / 2 / 15);
  ctx.sleep = [](std::chrono::milliseconds) {};
  return ctx;
}

//! Extracts one resource of the example into `dir` through its replay client.
std::vector<Json> ExtractExample(const registry::Registry& registry, const registry::Source& source,
                                 const registry::Resource& resource,
                                 const std::filesystem::path& dir) {
  std::vector<Json> records;
  auto client = MakeSourceClient(registry.project, source);
  EXPECT_TRUE(client.has_value()) << client.error().ToString();
  auto extractor = Extractor::Make(source, &*client, FixedContext());
  EXPECT_TRUE(extractor.has_value()) << extractor.error().ToString();
  auto stats = ExtractRecords(*extractor, source, resource, dir, [&](Json r) {
    records.push_back(std::move(r));
    return Ok();
  });
  EXPECT_TRUE(stats.has_value()) << stats.error().ToString();
  return records;
}

TEST(ReplayExampleTest, EveryEnabledRoutineResourceYieldsTheRecordedRecords) {
  auto registry = registry::LoadRegistry(kExample, {.env = NoEnv});
  ASSERT_TRUE(registry.has_value()) << registry.error().ToString();
  int resources_run = 0;
  for (const registry::Source* source : registry->RoutineSources()) {
    const auto bodies = RecordedBodies(*registry->project.http.replay_dir / source->name);
    auto client = MakeSourceClient(registry->project, *source);
    ASSERT_TRUE(client.has_value()) << client.error().ToString();
    auto extractor = Extractor::Make(*source, &*client, FixedContext());
    ASSERT_TRUE(extractor.has_value()) << extractor.error().ToString();
    duck::testing::TempDir dir;
    for (const registry::Resource& resource : source->resources) {
      if (!resource.enabled) continue;
      SCOPED_TRACE(source->name + "." + resource.name);
      auto body = bodies.find(source->base_url + resource.path);
      ASSERT_NE(body, bodies.end()) << "no recording for " << source->base_url + resource.path;
      const Expected expected = ExpectedCounts(*source, resource, body->second);
      ASSERT_GT(expected.records, 0);

      std::vector<Json> records;
      auto stats = ExtractRecords(*extractor, *source, resource, dir.path(), [&](Json record) {
        records.push_back(std::move(record));
        return Ok();
      });
      ASSERT_TRUE(stats.has_value()) << stats.error().ToString();
      EXPECT_EQ(stats->requests, 1);
      EXPECT_EQ(stats->extracted, expected.extracted);
      EXPECT_EQ(stats->records, expected.records);
      ASSERT_EQ(static_cast<int64_t>(records.size()), expected.records);
      for (const Json& record : records) ASSERT_TRUE(record.is_object());

      // The stored pages give the same records again, without any request.
      std::vector<Json> again;
      auto resumed = RecordsFromFolder(*source, resource, dir.path(), [&](Json record) {
        again.push_back(std::move(record));
        return Ok();
      });
      ASSERT_TRUE(resumed.has_value()) << resumed.error().ToString();
      EXPECT_EQ(resumed->requests, 0);
      EXPECT_EQ(again, records);
      ++resources_run;
    }
  }
  // ebird 4, noaa 3, usgs 2, usgs_earthquakes 1, gbif 1, xeno_canto 1
  EXPECT_EQ(resources_run, 12);
}

TEST(ReplayExampleTest, TransformedRecordsCarryTheDocumentedColumnsAndVariables) {
  auto registry = registry::LoadRegistry(kExample, {.env = NoEnv});
  ASSERT_TRUE(registry.has_value()) << registry.error().ToString();
  const registry::Source& xc = *registry->FindSource("xeno_canto");
  duck::testing::TempDir dir;
  const std::vector<Json> records = ExtractExample(*registry, xc, xc.resources.at(0), dir.path());
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].begin().key(), "id");
  EXPECT_EQ(records[0]["id"], "728080");  // first recording in the recorded response
  EXPECT_EQ(records[0]["_query_page"], 1);
  EXPECT_EQ(records[0]["_query"], "cnt:\"United States\" loc:\"Arizona\" grp:birds");
  EXPECT_EQ(records[0]["_loaded_at"], "2026-02-15 00:00:00");
  const std::string url = records[0]["_source_url"];
  EXPECT_THAT(url, ::testing::StartsWith("https://xeno-canto.org/api/3/recordings?"));
  EXPECT_THAT(url, ::testing::HasSubstr("per_page=2"));

  // The page index records the redacted URL, status and page of every response.
  auto index = ReadPageIndex(dir.path() / "recordings");
  ASSERT_TRUE(index.has_value()) << index.error().ToString();
  ASSERT_EQ(index->pages.size(), 1u);
  EXPECT_EQ(index->pages[0].status, 200);
  EXPECT_EQ(index->pages[0].url, url);
  EXPECT_EQ(index->load_id, "1771113600.5");
}

TEST(ReplayExampleTest, UsgsSitesRdbGivesSiteRowsWithHeaderNames) {
  auto registry = registry::LoadRegistry(kExample, {.env = NoEnv});
  ASSERT_TRUE(registry.has_value()) << registry.error().ToString();
  registry::Source usgs = *registry->FindSource("usgs");
  registry::Resource sites = usgs.resources.at(1);
  ASSERT_EQ(sites.name, "sites");
  sites.transform.clear();  // the raw RDB records
  duck::testing::TempDir dir;
  const std::vector<Json> records = ExtractExample(*registry, usgs, sites, dir.path());
  ASSERT_FALSE(records.empty());
  const auto bodies = RecordedBodies(*registry->project.http.replay_dir / "usgs");
  const std::string& body = bodies.at(usgs.base_url + "/site");
  ASSERT_EQ(static_cast<int64_t>(records.size()), CountRdbRows(body));
  EXPECT_EQ(records[0].begin().key(), "agency_cd");
  EXPECT_EQ(records[0]["agency_cd"], "USGS");
  // The first data line of the body, field by field.
  std::stringstream lines(body);
  std::string line;
  int non_comment = 0;
  while (std::getline(lines, line) && (line.empty() || line[0] == '#' || ++non_comment < 3)) {
  }
  const std::string site_no = line.substr(line.find('\t') + 1, line.find('\t', 5) - 5);
  EXPECT_EQ(records[0]["site_no"], site_no);
}

}  // namespace
}  // namespace databox::platform
