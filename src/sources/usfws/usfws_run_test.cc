#include "sources/usfws/usfws_run.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "sources/usfws/test_util.h"

namespace databox::source {
namespace {

using ::testing::HasSubstr;
using testing::RecordingTiming;
using testing::ScriptedSite;
using testing::SearchBody;
using testing::UsfwsFixture;

const Target kRufhum{"rufhum", "Rufous Hummingbird", "Selasphorus rufus", 0};
const std::string kPerched = "https://www.fws.gov/media/rufous-hummingbird-perched";
const std::string kFlight = "https://www.fws.gov/media/rufous-hummingbird-flight";
const std::string kOffsite = "https://partners.example.org/photos/rufous-at-feeder";

std::string Url(int query, int64_t offset) { return PageUrl(QueriesFor(kRufhum)[query], offset); }

//! The synthetic fws.gov of the upstream fixture test: three images of rufhum, one of them
//! off-site; the two media pages.
std::shared_ptr<ScriptedSite> FixtureSite(bool with_flight_page = true) {
  auto site = std::make_shared<ScriptedSite>();
  site->Add(Url(0, 0), 200,
            SearchBody(2, {UsfwsFixture("card_perched.html"), UsfwsFixture("card_offsite.html")},
                       "species", "Rufous Hummingbird"));
  site->Add(Url(1, 0), 200, SearchBody(1, {UsfwsFixture("card_perched.html")}, "type", "Image"));
  site->Add(Url(2, 0), 200, SearchBody(1, {UsfwsFixture("card_flight.html")}, "type", "Image"));
  site->Add(kPerched, 200, UsfwsFixture("media_perched.html"));
  if (with_flight_page) site->Add(kFlight, 200, UsfwsFixture("media_flight.html"));
  return site;
}

UsfwsRunOptions FixtureOptions() {
  UsfwsRunOptions options;
  options.run_id = "fixture-run";
  options.loaded_at = "2026-08-03T12:00:00Z";
  options.detail_workers = 2;
  options.contact = "ops@example.org";
  return options;
}

Result<UsfwsImageSearch> MakeSearch(std::shared_ptr<ScriptedSite> site, RecordingTiming& timing,
                                    UsfwsRunOptions options = FixtureOptions(),
                                    std::vector<Target> targets = {kRufhum}) {
  return UsfwsImageSearch::Make(
      std::move(targets), std::move(options),
      [site]() -> Result<std::shared_ptr<http::Transport>> { return site; }, &timing);
}

TEST(UsfwsRunTest, UpstreamFixtureGivesThreeRecordsAndOneRunRow) {
  auto site = FixtureSite();
  RecordingTiming timing;
  auto search = MakeSearch(site, timing);
  ASSERT_TRUE(search.has_value()) << search.error().ToString();
  auto rows = search->Rows();
  ASSERT_TRUE(rows.has_value()) << rows.error().ToString();
  ASSERT_EQ((*rows)->runs.size(), 1u);
  ASSERT_EQ((*rows)->records.size(), 3u);

  const Json& run = (*rows)->runs[0];
  EXPECT_EQ(run["run_id"], "fixture-run");
  EXPECT_EQ(run["status"], "complete");
  EXPECT_EQ(run["target_species_count"], 1);
  EXPECT_EQ(run["completed_target_species_count"], 1);
  EXPECT_EQ(run["record_count"], 3);
  EXPECT_EQ(run["search_endpoint"],
            "[\"https://www.fws.gov/fws_search/search_images\","
            "\"https://www.fws.gov/fws_search/global_search\"]");
  EXPECT_EQ(run["page_size"], 100);
  EXPECT_EQ(run["max_images_per_target"], 500);
  EXPECT_EQ(run["request_max_attempts"], 6);
  EXPECT_EQ(run["detail_worker_count"], 2);
  EXPECT_EQ(run["_loaded_at"], "2026-08-03T12:00:00Z");

  // Sorted by species_code, then source_page_url.
  const Json& offsite = (*rows)->records[0];
  const Json& flight = (*rows)->records[1];
  const Json& perched = (*rows)->records[2];
  EXPECT_EQ(offsite["source_page_url"], kOffsite);
  EXPECT_EQ(offsite["detail_fetch_status"], "skipped_unsafe_url");
  EXPECT_TRUE(offsite["source_title"].is_null());
  EXPECT_EQ(offsite["subject_tags_json"], "[]");
  EXPECT_EQ(flight["detail_fetch_status"], "ok");
  EXPECT_EQ(flight["source_license"], "CC BY-NC 4.0");
  EXPECT_EQ(flight["discovery_method"], "exact_scientific_name");
  EXPECT_EQ(perched["detail_fetch_status"], "ok");
  EXPECT_EQ(perched["source_license"], "Public Domain");
  EXPECT_EQ(perched["discovery_method"], "exact_common_name,species_facet");
  EXPECT_EQ(perched["_search_endpoint"],
            "https://www.fws.gov/fws_search/global_search,"
            "https://www.fws.gov/fws_search/search_images");
  EXPECT_EQ(perched["source_image_medium_width"], 650);
  EXPECT_EQ(perched["source_image_medium_height"], 406);
  EXPECT_EQ(perched["source_image_original_width"], 1600);
  EXPECT_EQ(perched["source_image_original_height"], 1000);
  EXPECT_EQ(perched["source_mime_type"], "image/jpeg");
  EXPECT_EQ(perched["source_published_at"], "2024-06-21");
  EXPECT_EQ(perched["species_code"], "rufhum");
  EXPECT_EQ(perched["target_common_name"], "Rufous Hummingbird");
  EXPECT_EQ(perched["target_scientific_name"], "Selasphorus rufus");
  EXPECT_EQ(perched["run_id"], "fixture-run");

  // Each safe page once, the off-site one never; nothing waited.
  EXPECT_EQ(site->CountOf(kPerched), 1);
  EXPECT_EQ(site->CountOf(kFlight), 1);
  EXPECT_EQ(site->CountOf(kOffsite), 0);
  EXPECT_TRUE(timing.WaitSeconds().empty());
  EXPECT_EQ(site->requests().front().headers.Get("User-Agent"),
            "Databox/0.1 (USFWS image search; contact: ops@example.org)");
}

TEST(UsfwsRunTest, RecordColumnsComeInTheDocumentedOrder) {
  auto site = FixtureSite();
  RecordingTiming timing;
  auto search = MakeSearch(site, timing);
  ASSERT_TRUE(search.has_value());
  auto rows = search->Rows();
  ASSERT_TRUE(rows.has_value()) << rows.error().ToString();
  std::vector<std::string> columns;
  for (const auto& item : (*rows)->records[0].items()) columns.push_back(item.key());
  const std::vector<registry::Resource> resources = UsfwsResources();
  std::vector<std::string> declared;
  for (const auto& [name, hint] : resources[1].columns) declared.push_back(name);
  EXPECT_EQ(columns, resources[1].column_order);  // the table's columns in the row's order
  EXPECT_EQ(columns.size(), declared.size());
  EXPECT_EQ(columns.front(), "run_id");
  EXPECT_EQ(columns[6], "source_page_url");
  EXPECT_EQ(columns[7], "search_result_page_href");
  EXPECT_EQ(columns[17], "detail_fetch_status");
  EXPECT_EQ(columns.back(), "_loaded_at");
  std::ranges::sort(columns);
  EXPECT_EQ(columns, declared);  // every column has a type
}

TEST(UsfwsRunTest, AnUnavailablePageIsKeptAfterSixAttempts) {
  auto site = FixtureSite(/*with_flight_page=*/false);
  RecordingTiming timing;
  auto search = MakeSearch(site, timing);
  ASSERT_TRUE(search.has_value());
  auto rows = search->Rows();
  ASSERT_TRUE(rows.has_value()) << rows.error().ToString();
  const Json& flight = (*rows)->records[1];
  EXPECT_EQ(flight["detail_fetch_status"], "unavailable_after_retries");
  EXPECT_TRUE(flight["source_license"].is_null());
  EXPECT_TRUE(flight["source_image_medium_width"].is_null());
  EXPECT_EQ(flight["scientific_name_tags_json"], "[]");
  EXPECT_EQ(flight["species_tag_urls_json"], "[]");
  EXPECT_EQ(flight["search_result_title"], "Rufous in flight");  // card fields stay
  EXPECT_EQ(site->CountOf(kFlight), 6);
  EXPECT_EQ(timing.WaitSeconds(), (std::vector<int64_t>{1, 2, 4, 8, 16}));
  EXPECT_EQ((*rows)->runs[0]["record_count"], 3);
}

TEST(UsfwsRunTest, RowsAreComputedOnce) {
  auto site = FixtureSite();
  RecordingTiming timing;
  auto search = MakeSearch(site, timing);
  ASSERT_TRUE(search.has_value());
  ASSERT_TRUE(search->Rows().has_value());
  const std::size_t requests = site->requests().size();
  auto again = search->Rows();
  ASSERT_TRUE(again.has_value());
  EXPECT_EQ(site->requests().size(), requests);
  EXPECT_EQ((*again)->records.size(), 3u);
}

TEST(UsfwsRunTest, MoreThanTenUnavailablePagesAbort) {
  auto site = std::make_shared<ScriptedSite>();
  std::vector<std::string> cards;
  for (int i = 0; i < 11; ++i) {
    cards.push_back("<div class='field--name-name'><a href='/media/p" + std::to_string(i) +
                    "'>p</a></div>");
  }
  site->Add(Url(0, 0), 200, SearchBody(11, cards, "species", "Rufous Hummingbird"));
  site->Add(Url(1, 0), 200, R"({"list":[],"_meta":{"total":0}})");
  site->Add(Url(2, 0), 200, R"({"list":[],"_meta":{"total":0}})");
  UsfwsRunOptions options = FixtureOptions();
  options.request_max_attempts = 1;
  RecordingTiming timing;
  auto search = MakeSearch(site, timing, options);
  ASSERT_TRUE(search.has_value());
  auto rows = search->Rows();
  ASSERT_FALSE(rows.has_value());
  EXPECT_THAT(rows.error().message, HasSubstr("more than 10 media pages stayed unavailable"));

  // Ten are fine.
  cards.pop_back();
  auto ten = std::make_shared<ScriptedSite>();
  ten->Add(Url(0, 0), 200, SearchBody(10, cards, "species", "Rufous Hummingbird"));
  ten->Add(Url(1, 0), 200, R"({"list":[],"_meta":{"total":0}})");
  ten->Add(Url(2, 0), 200, R"({"list":[],"_meta":{"total":0}})");
  auto ok = MakeSearch(ten, timing, options);
  ASSERT_TRUE(ok.has_value());
  auto ten_rows = ok->Rows();
  ASSERT_TRUE(ten_rows.has_value()) << ten_rows.error().ToString();
  EXPECT_EQ((*ten_rows)->records.size(), 10u);
}

TEST(UsfwsRunTest, AbortsLeaveNoRows) {
  // A media page that is gone (404) and one that is not UTF-8 abort the run.
  for (const auto& [status, body] :
       std::vector<std::pair<long, std::string>>{{404, "gone"}, {200, "<p>caf\xE9</p>"}}) {
    auto site = FixtureSite(/*with_flight_page=*/false);
    site->Add(kFlight, status, body);
    RecordingTiming timing;
    auto search = MakeSearch(site, timing);
    ASSERT_TRUE(search.has_value());
    auto rows = search->Rows();
    ASSERT_FALSE(rows.has_value()) << status;
    EXPECT_THAT(rows.error().message, HasSubstr("the run was aborted, nothing is loaded"));
    EXPECT_THAT(rows.error().message, ::testing::Not(HasSubstr("rufous-hummingbird-flight")));
  }
  // A search that breaks a rule aborts before any media page is read.
  auto site = std::make_shared<ScriptedSite>();
  site->Add(Url(0, 0), 200,
            SearchBody(1, {UsfwsFixture("card_perched.html")}, "species", "Rufous Hummingbird"));
  site->Add(Url(1, 0), 200, SearchBody(1, {UsfwsFixture("card_perched.html")}, "type", "Image"));
  site->Add(Url(2, 0), 200, SearchBody(501, {}, "type", "Image"));
  site->Add(kPerched, 200, UsfwsFixture("media_perched.html"));
  RecordingTiming timing;
  auto search = MakeSearch(site, timing);
  ASSERT_TRUE(search.has_value());
  EXPECT_FALSE(search->Rows().has_value());
  EXPECT_EQ(site->CountOf(kPerched), 0);
}

TEST(UsfwsRunTest, DefaultRunIdHashesLoadedAtAndThePythonReprOfTheTargets) {
  const std::vector<Target> berhum = {{"berhum", "Berylline Hummingbird", "Amazilia beryllina", 0}};
  EXPECT_EQ(DefaultRunId("2026-08-03T12:00:00Z", berhum),
            "f2b8f0c01e90092680ba9fbd19c287cf9486476d16e1196719a3d0e24b75355a");
  UsfwsRunOptions options;
  options.loaded_at = "2026-08-03T12:00:00Z";
  RecordingTiming timing;
  auto search = MakeSearch(std::make_shared<ScriptedSite>(), timing, options, berhum);
  ASSERT_TRUE(search.has_value());
  EXPECT_EQ(search->run_id(), "f2b8f0c01e90092680ba9fbd19c287cf9486476d16e1196719a3d0e24b75355a");
  // hashlib.sha256("2026-01-01T00:00:00Z|[('a', \"O'Hare x\"), ('b', 'B c')]".encode())
  EXPECT_EQ(DefaultRunId("2026-01-01T00:00:00Z", {{"a", "n", "O'Hare x", 0}, {"b", "n", "B c", 0}}),
            "d77604d97aa65b4eb3ce03ace49984f3d2eb42509b603ca12c4e3990b304b02d");
}

TEST(UsfwsRunTest, InputsAreCheckedAtConstructionWithoutIo) {
  auto site = std::make_shared<ScriptedSite>();
  RecordingTiming timing;
  auto dup = MakeSearch(site, timing, FixtureOptions(), {kRufhum, kRufhum});
  ASSERT_FALSE(dup.has_value());
  EXPECT_THAT(dup.error().message, HasSubstr("duplicate species_code 'rufhum'"));
  std::vector<Target> many;
  for (int i = 0; i < 501; ++i) many.push_back({"c" + std::to_string(i), "n", "s", 0});
  EXPECT_THAT(MakeSearch(site, timing, FixtureOptions(), many).error().message,
              HasSubstr("501 targets, more than the limit of 500"));
  auto collapsed = MakeSearch(site, timing, FixtureOptions(),
                              {{" rufhum ", "Rufous\t Hummingbird", "Selasphorus  rufus", 0}});
  ASSERT_TRUE(collapsed.has_value()) << collapsed.error().ToString();
  for (auto [field, low, high] : std::vector<std::tuple<int UsfwsRunOptions::*, int, int>>{
           {&UsfwsRunOptions::max_images_per_target, 1, 500},
           {&UsfwsRunOptions::request_max_attempts, 1, 6},
           {&UsfwsRunOptions::detail_workers, 1, 4}}) {
    for (int bad : {low - 1, high + 1}) {
      UsfwsRunOptions options = FixtureOptions();
      options.*field = bad;
      auto made = MakeSearch(site, timing, options);
      ASSERT_FALSE(made.has_value()) << bad;
      EXPECT_EQ(made.error().kind, ErrorKind::kConfig);
      EXPECT_THAT(made.error().message, HasSubstr("is out of range"));
    }
  }
  for (const char* bad : {"2026-08-03", "2026-08-03T12:00:00", "2026-08-03T12:00:00+02:00",
                          "2026-02-30T12:00:00Z", "yesterday"}) {
    UsfwsRunOptions options = FixtureOptions();
    options.loaded_at = bad;
    EXPECT_FALSE(MakeSearch(site, timing, options).has_value()) << bad;
  }
  UsfwsRunOptions fraction = FixtureOptions();
  fraction.loaded_at = "2026-08-03T12:00:00.123456+00:00";
  EXPECT_TRUE(MakeSearch(site, timing, fraction).has_value());
  EXPECT_TRUE(site->requests().empty());
}

TEST(UsfwsRunTest, AnEmptyTargetListIsRefusedWhenRowsAreAsked) {
  auto site = std::make_shared<ScriptedSite>();
  RecordingTiming timing;
  auto search = MakeSearch(site, timing, FixtureOptions(), {});
  ASSERT_TRUE(search.has_value());
  auto rows = search->Rows();
  ASSERT_FALSE(rows.has_value());
  EXPECT_THAT(rows.error().message, HasSubstr("target_species must be supplied"));
  EXPECT_TRUE(site->requests().empty());
}

}  // namespace
}  // namespace databox::source
