#include "source/extractor.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "duck/test_support.h"
#include "source/source_test_support.h"

namespace databox::source {
namespace {

using ::testing::ElementsAre;
using testing::FakeTransport;
using ::testing::HasSubstr;
using ::testing::Not;
using testing::QueryParam;

constexpr char kSecret[] = "sekrit-value-123";

registry::Source DemoSource() {
  registry::Source s;
  s.name = "demo";
  s.base_url = "https://api.example.org/v1";
  registry::Resource r;
  r.name = "items";
  r.path = "/items";
  r.records_path = "results";
  s.resources.push_back(r);
  return s;
}

LoadContext TestContext(std::vector<std::chrono::milliseconds>* sleeps = nullptr) {
  LoadContext ctx;
  ctx.load_id = "1771113600.123456";
  ctx.loaded_at = std::chrono::sys_days(std::chrono::year(2026) / 2 / 15) + std::chrono::hours(6);
  ctx.today = std::chrono::sys_days(std::chrono::year(2026) / 2 / 15);
  ctx.sleep = [sleeps](std::chrono::milliseconds d) {
    if (sleeps != nullptr) sleeps->push_back(d);
  };
  return ctx;
}

//! A JSON page {"results":[{"i":first}, ...]} with `n` records, plus extra members.
http::Response Page(int first, int n, Json extra = Json::object()) {
  Json body = std::move(extra);
  body["results"] = Json::array();
  for (int i = 0; i < n; ++i) body["results"].push_back({{"i", first + i}});
  return http::Response{200, {}, body.dump()};
}

struct RunResult {
  Result<ResourceStats> stats;
  std::vector<Json> records;
  std::vector<http::Request> requests;
};

RunResult RunResource(const registry::Source& source, FakeTransport::Handler handler,
                      LoadContext context = TestContext()) {
  auto fake = std::make_shared<FakeTransport>(std::move(handler));
  http::ClientOptions options;
  options.retry.max_attempts = 1;
  auto client = http::HttpClient::WithTransport(fake, options);
  duck::testing::TempDir dir;
  auto extractor = Extractor::Make(source, &client, std::move(context));
  EXPECT_TRUE(extractor.has_value());
  RunResult out{MakeError(ErrorKind::kInternal, "not run"), {}, {}};
  out.stats =
      ExtractRecords(*extractor, source, source.resources.at(0), dir.path(), [&](Json record) {
        out.records.push_back(std::move(record));
        return Ok();
      });
  out.requests = fake->requests();
  return out;
}

std::vector<std::string> Params(const std::vector<http::Request>& requests,
                                const std::string& name) {
  std::vector<std::string> values;
  for (const auto& r : requests) values.push_back(QueryParam(r.url, name));
  return values;
}

TEST(PaginationTest, OffsetLimitStopsAtTotal) {
  registry::Source s = DemoSource();
  registry::Pagination& p = s.resources[0].pagination;
  p.type = registry::PaginationType::kOffsetLimit;
  p.total_path = "meta.count";
  p.page_size = 2;
  auto run = RunResource(s, [](const http::Request& r) {
    const int offset = std::stoi(QueryParam(r.url, "offset"));
    return Page(offset, std::min(2, 4 - offset), {{"meta", {{"count", 4}}}});
  });
  ASSERT_TRUE(run.stats.has_value()) << run.stats.error().ToString();
  EXPECT_THAT(Params(run.requests, "offset"), ElementsAre("0", "2"));
  EXPECT_THAT(Params(run.requests, "limit"), ElementsAre("2", "2"));
  EXPECT_EQ(run.records.size(), 4u);
  EXPECT_EQ(run.records.back()["i"], 3);
  EXPECT_EQ(run.stats->requests, 2);
  EXPECT_EQ(run.stats->pages, 2);
}

TEST(PaginationTest, OffsetLimitStopsOnShortPage) {
  registry::Source s = DemoSource();
  registry::Pagination& p = s.resources[0].pagination;
  p.type = registry::PaginationType::kOffsetLimit;
  p.page_size = 2;
  auto run = RunResource(s, [](const http::Request& r) {
    const int offset = std::stoi(QueryParam(r.url, "offset"));
    return Page(offset, offset < 4 ? 2 : 1);
  });
  ASSERT_TRUE(run.stats.has_value()) << run.stats.error().ToString();
  EXPECT_THAT(Params(run.requests, "offset"), ElementsAre("0", "2", "4"));
  EXPECT_EQ(run.records.size(), 5u);
}

TEST(PaginationTest, OffsetLimitStopsOnEmptyPageAndEndFlag) {
  registry::Source s = DemoSource();
  registry::Pagination& p = s.resources[0].pagination;
  p.type = registry::PaginationType::kOffsetLimit;
  p.limit_param = "$top";
  p.offset_param = "$skip";
  p.page_size = 2;
  auto empty = RunResource(s, [](const http::Request& r) {
    const int offset = std::stoi(QueryParam(r.url, "%24skip"));
    return Page(offset, offset < 4 ? 2 : 0);
  });
  ASSERT_TRUE(empty.stats.has_value()) << empty.stats.error().ToString();
  EXPECT_THAT(Params(empty.requests, "%24skip"), ElementsAre("0", "2", "4"));
  EXPECT_EQ(empty.records.size(), 4u);

  s.resources[0].pagination.end_flag_path = "endOfRecords";
  auto flagged = RunResource(s, [](const http::Request& r) {
    const int offset = std::stoi(QueryParam(r.url, "%24skip"));
    return Page(offset, 2, {{"endOfRecords", offset >= 2}});
  });
  ASSERT_TRUE(flagged.stats.has_value()) << flagged.stats.error().ToString();
  EXPECT_EQ(flagged.requests.size(), 2u);
  EXPECT_EQ(flagged.records.size(), 4u);
}

TEST(PaginationTest, MaxRecordsCapsAcrossPages) {
  registry::Source s = DemoSource();
  registry::Pagination& p = s.resources[0].pagination;
  p.type = registry::PaginationType::kOffsetLimit;
  p.page_size = 2;
  p.max_records = 3;
  auto run = RunResource(s, [](const http::Request& r) {
    return Page(std::stoi(QueryParam(r.url, "offset")), 2);  // never ends by itself
  });
  ASSERT_TRUE(run.stats.has_value()) << run.stats.error().ToString();
  EXPECT_EQ(run.requests.size(), 2u);
  ASSERT_EQ(run.records.size(), 3u);
  EXPECT_EQ(run.records.back()["i"], 2);
  EXPECT_EQ(run.stats->extracted, 3);
}

//! DemoSource() paged 300 at a time under a refinement that adds license/occurrenceStatus
//! filters and reserves min(300, max / 10) records for taxonKey 2476855 from max 600 on.
registry::Source RefinedSource(int64_t max_records) {
  registry::Source s = DemoSource();
  registry::Resource& r = s.resources[0];
  r.pagination.type = registry::PaginationType::kOffsetLimit;
  r.pagination.page_size = 300;
  r.pagination.max_records = max_records;
  r.primary_key = {"i"};
  r.refine = registry::Refinement{{{"license", "CC_BY_4_0"}, {"occurrenceStatus", "PRESENT"}},
                                  registry::ReservedQuery{{{"taxonKey", "2476855"}}, 10, 300, 600}};
  return s;
}

//! Endless pages: the main query numbers its records from 0, the reserved query from 899, so its
//! first record repeats the last one the main query keeps when max is 1000 (900 main records).
http::Response RefinedPage(const http::Request& r) {
  const int offset = std::stoi(QueryParam(r.url, "offset"));
  const bool reserved = !QueryParam(r.url, "taxonKey").empty();
  return Page((reserved ? 899 : 0) + offset, 300);
}

TEST(RefinementTest, ReservedQueryTakesATenthAndItsRepeatedKeyIsDropped) {
  auto run = RunResource(RefinedSource(1000), RefinedPage);
  ASSERT_TRUE(run.stats.has_value()) << run.stats.error().ToString();
  // 900 records in three pages of the main query, then one page of the reserved query.
  EXPECT_THAT(Params(run.requests, "taxonKey"), ElementsAre("", "", "", "2476855"));
  EXPECT_THAT(Params(run.requests, "offset"), ElementsAre("0", "300", "600", "0"));
  EXPECT_THAT(Params(run.requests, "license"),
              ElementsAre("CC_BY_4_0", "CC_BY_4_0", "CC_BY_4_0", "CC_BY_4_0"));
  EXPECT_THAT(Params(run.requests, "occurrenceStatus"),
              ElementsAre("PRESENT", "PRESENT", "PRESENT", "PRESENT"));
  EXPECT_EQ(run.stats->extracted, 1000);  // 900 + 100 records kept from the responses
  EXPECT_EQ(run.stats->duplicates, 1);    // key 899 came from both queries
  ASSERT_EQ(run.records.size(), 999u);
  EXPECT_EQ(run.stats->records, 999);
  EXPECT_EQ(run.records[899]["i"], 899);  // the main query's row
  EXPECT_EQ(run.records[900]["i"], 900);  // then the reserved query's new keys
  EXPECT_EQ(run.records.back()["i"], 998);
}

TEST(RefinementTest, LargeMaxReservesAtMost300) {
  auto run = RunResource(RefinedSource(5000), RefinedPage);
  ASSERT_TRUE(run.stats.has_value()) << run.stats.error().ToString();
  int64_t reserved_requests = 0;
  for (const std::string& taxon : Params(run.requests, "taxonKey")) {
    reserved_requests += taxon.empty() ? 0 : 1;
  }
  EXPECT_EQ(reserved_requests, 1);
  EXPECT_EQ(run.requests.size(), 17u);  // 4700 main records: 16 pages of 300, then 1 reserved
  EXPECT_EQ(run.stats->extracted, 5000);
  // The main query's keys are 0..4699, the reserved query's 899..1198: every one a repeat.
  EXPECT_EQ(run.stats->duplicates, 300);
  EXPECT_EQ(run.records.size(), 4700u);
}

TEST(RefinementTest, BelowSixHundredThereIsNoReservedQuery) {
  auto run = RunResource(RefinedSource(500), RefinedPage);
  ASSERT_TRUE(run.stats.has_value()) << run.stats.error().ToString();
  EXPECT_THAT(Params(run.requests, "taxonKey"), ElementsAre("", ""));
  EXPECT_THAT(Params(run.requests, "license"), ElementsAre("CC_BY_4_0", "CC_BY_4_0"));
  EXPECT_EQ(run.records.size(), 500u);
  EXPECT_EQ(run.stats->duplicates, 0);
}

TEST(RefinementTest, WithoutTheRefinementTheQueryIsUnfiltered) {
  registry::Source s = RefinedSource(1000);
  s.resources[0].refine.reset();
  auto run = RunResource(s, RefinedPage);
  ASSERT_TRUE(run.stats.has_value()) << run.stats.error().ToString();
  EXPECT_EQ(run.requests.size(), 4u);  // 1000 records, pages of 300
  for (const http::Request& request : run.requests) {
    EXPECT_EQ(QueryParam(request.url, "license"), "") << request.url;
    EXPECT_EQ(QueryParam(request.url, "taxonKey"), "") << request.url;
  }
  EXPECT_EQ(run.records.size(), 1000u);
}

TEST(PaginationTest, PageNumberStopsAtNumPagesAndOnShortPage) {
  registry::Source s = DemoSource();
  registry::Pagination& p = s.resources[0].pagination;
  p.type = registry::PaginationType::kPageNumber;
  p.page_size_param = "per_page";
  p.num_pages_path = "numPages";
  p.page_size = 2;
  auto run = RunResource(s, [](const http::Request& r) {
    const int page = std::stoi(QueryParam(r.url, "page"));
    return Page(page * 10, 2, {{"numPages", "3"}});
  });
  ASSERT_TRUE(run.stats.has_value()) << run.stats.error().ToString();
  EXPECT_THAT(Params(run.requests, "page"), ElementsAre("1", "2", "3"));
  EXPECT_THAT(Params(run.requests, "per_page"), ElementsAre("2", "2", "2"));
  EXPECT_EQ(run.records.size(), 6u);

  s.resources[0].pagination.num_pages_path.clear();
  auto short_page = RunResource(s, [](const http::Request& r) {
    const int page = std::stoi(QueryParam(r.url, "page"));
    return Page(page * 10, page == 2 ? 1 : 2);
  });
  ASSERT_TRUE(short_page.stats.has_value());
  EXPECT_THAT(Params(short_page.requests, "page"), ElementsAre("1", "2"));
  EXPECT_EQ(short_page.records.size(), 3u);
}

TEST(PaginationTest, CursorFollowsNextLinksWithAuthAndStops) {
  registry::Source s = DemoSource();
  s.auth = {registry::AuthType::kQuery, "api_key", registry::Secret("K", kSecret, true)};
  registry::Pagination& p = s.resources[0].pagination;
  p.type = registry::PaginationType::kCursor;
  p.next_path = "links.next";
  auto run = RunResource(s, [](const http::Request& r) {
    if (r.url.find("cursor=abc") != std::string::npos) return Page(2, 1);
    return Page(0, 2, {{"links", {{"next", "https://api.example.org/v1/items?cursor=abc"}}}});
  });
  ASSERT_TRUE(run.stats.has_value()) << run.stats.error().ToString();
  ASSERT_EQ(run.requests.size(), 2u);
  EXPECT_EQ(QueryParam(run.requests[1].url, "cursor"), "abc");
  EXPECT_EQ(QueryParam(run.requests[1].url, "api_key"), kSecret);
  EXPECT_EQ(run.records.size(), 3u);
}

TEST(PaginationTest, CursorParamAndRefusalOfForeignHostsAndLoops) {
  registry::Source s = DemoSource();
  registry::Pagination& p = s.resources[0].pagination;
  p.type = registry::PaginationType::kCursor;
  p.next_path = "next";
  p.cursor_param = "after";
  auto run = RunResource(s, [](const http::Request& r) {
    const std::string after = QueryParam(r.url, "after");
    if (after.empty()) return Page(0, 2, {{"next", "c1"}});
    return Page(2, 2, {{"next", nullptr}});
  });
  ASSERT_TRUE(run.stats.has_value()) << run.stats.error().ToString();
  EXPECT_THAT(Params(run.requests, "after"), ElementsAre("", "c1"));
  EXPECT_EQ(run.records.size(), 4u);

  auto loop = RunResource(s, [](const http::Request&) { return Page(0, 2, {{"next", "same"}}); });
  ASSERT_FALSE(loop.stats.has_value());
  EXPECT_THAT(loop.stats.error().message, HasSubstr("repeats"));

  s.resources[0].pagination.cursor_param.clear();
  auto foreign = RunResource(s, [](const http::Request&) {
    return Page(0, 2, {{"next", "https://evil.example.com/items?page=2"}});
  });
  ASSERT_FALSE(foreign.stats.has_value());
  EXPECT_THAT(foreign.stats.error().message, HasSubstr("leaves the source's host"));
  EXPECT_EQ(foreign.requests.size(), 1u);
}

TEST(AuthTest, HeaderBearerAndQueryPlacement) {
  registry::Source s = DemoSource();
  s.params = {{"fmt", "json"}};
  s.headers = {{"Accept", "application/json"}};
  s.auth = {registry::AuthType::kHeader, "X-Api-Token", registry::Secret("T", kSecret, true)};
  auto header = RunResource(s, [](const http::Request&) { return Page(0, 1); });
  ASSERT_EQ(header.requests.size(), 1u);
  EXPECT_EQ(header.requests[0].headers.Get("X-Api-Token"), kSecret);
  EXPECT_EQ(header.requests[0].headers.Get("Accept"), "application/json");
  EXPECT_EQ(header.requests[0].url, "https://api.example.org/v1/items?fmt=json");

  s.auth.type = registry::AuthType::kBearer;
  auto bearer = RunResource(s, [](const http::Request&) { return Page(0, 1); });
  EXPECT_EQ(bearer.requests.at(0).headers.Get("Authorization"), std::string("Bearer ") + kSecret);

  s.auth = {registry::AuthType::kQuery, "key", registry::Secret("T", kSecret, true)};
  auto query = RunResource(s, [](const http::Request&) { return Page(0, 1); });
  EXPECT_EQ(QueryParam(query.requests.at(0).url, "key"), kSecret);
  EXPECT_FALSE(query.requests.at(0).headers.Contains("Authorization"));

  s.auth.secret = registry::Secret("T", "", false);  // replay mode: unset secret sends nothing
  auto unset = RunResource(s, [](const http::Request&) { return Page(0, 1); });
  EXPECT_EQ(unset.requests.at(0).url.find("key="), std::string::npos);
}

TEST(ErrorTest, ErrorPathFailsTheResource) {
  registry::Source s = DemoSource();
  s.resources[0].error_path = "error";
  auto run = RunResource(s, [](const http::Request&) {
    return http::Response{200, {}, R"({"error":{"code":"bad_query"},"results":[]})"};
  });
  ASSERT_FALSE(run.stats.has_value());
  EXPECT_EQ(run.stats.error().kind, ErrorKind::kData);
  EXPECT_THAT(run.stats.error().message, HasSubstr("source demo, resource items"));
  EXPECT_THAT(run.stats.error().message, HasSubstr("bad_query"));
  auto fine = RunResource(s, [](const http::Request&) { return Page(0, 1, {{"error", nullptr}}); });
  EXPECT_TRUE(fine.stats.has_value());
}

TEST(ErrorTest, NonSuccessStatusNamesSourceResourceUrlButNoSecret) {
  registry::Source s = DemoSource();
  s.auth = {registry::AuthType::kQuery, "apikey", registry::Secret("T", kSecret, true)};
  auto run = RunResource(s, [](const http::Request&) { return http::Response{400, {}, "bad"}; });
  ASSERT_FALSE(run.stats.has_value());
  const std::string& message = run.stats.error().message;
  EXPECT_EQ(run.stats.error().kind, ErrorKind::kData);
  EXPECT_THAT(message, HasSubstr("source demo, resource items"));
  EXPECT_THAT(message, HasSubstr("https://api.example.org/v1/items?apikey="));
  EXPECT_THAT(message, HasSubstr("HTTP 400"));
  EXPECT_THAT(message, Not(HasSubstr(kSecret)));

  auto denied = RunResource(s, [](const http::Request&) { return http::Response{403, {}, ""}; });
  EXPECT_EQ(denied.stats.error().kind, ErrorKind::kAuth);
}

TEST(ErrorTest, NotJsonNamesTheUrl) {
  auto run = RunResource(DemoSource(), [](const http::Request&) {
    return http::Response{200, {}, "<html>"};
  });
  ASSERT_FALSE(run.stats.has_value());
  EXPECT_THAT(run.stats.error().message,
              HasSubstr("source demo, resource items, GET https://api.example.org/v1/items"));
}

registry::Source PerDaySource() {
  registry::Source s = DemoSource();
  s.pause_s = 0.25;
  s.vars = {{"region", "US-AZ"}};
  s.window = registry::WindowSettings{};
  s.window->start = "2026-02-13";
  s.window->end = "2026-02-15";
  s.window->chunk_days = 1;
  s.resources[0].path = "/stats/{region}/{year}/{month}/{day}";
  s.resources[0].records_path = "$";
  s.resources[0].transform =
      "SELECT getvariable('start') AS date, getvariable('region') AS region, "
      "CAST(record->>'$.n' AS BIGINT) AS n FROM records";
  return s;
}

TEST(WindowTest, PerDayRequestsSkipAndReportFailedDaysAndPause) {
  std::vector<std::chrono::milliseconds> sleeps;
  auto run = RunResource(
      PerDaySource(),
      [](const http::Request& r) {
        if (r.url.ends_with("/14")) return http::Response{500, {}, "oops"};
        return http::Response{200, {}, R"({"n": 5})"};
      },
      TestContext(&sleeps));
  ASSERT_TRUE(run.stats.has_value()) << run.stats.error().ToString();
  ASSERT_EQ(run.requests.size(), 3u);
  EXPECT_EQ(run.requests[0].url, "https://api.example.org/v1/stats/US-AZ/2026/2/13");
  ASSERT_EQ(run.stats->skipped.size(), 1u);
  EXPECT_EQ(run.stats->skipped[0].status, 500);
  EXPECT_EQ(run.stats->skipped[0].chunk.at("start"), "2026-02-14");
  ASSERT_EQ(run.records.size(), 2u);
  EXPECT_EQ(run.records[0].dump(), R"({"date":"2026-02-13","region":"US-AZ","n":5})");
  EXPECT_EQ(run.records[1]["date"], "2026-02-15");
  EXPECT_THAT(sleeps, ElementsAre(std::chrono::milliseconds(250), std::chrono::milliseconds(250)));
}

TEST(WindowTest, EveryDayFailingFailsTheResource) {
  auto run = RunResource(PerDaySource(), [](const http::Request&) {
    return http::Response{404, {}, ""};
  });
  ASSERT_FALSE(run.stats.has_value());
  EXPECT_THAT(run.stats.error().message, HasSubstr("every day of the window failed"));
}

TEST(WindowTest, DaysBackFromTodayInChunks) {
  registry::Source s = DemoSource();
  s.window = registry::WindowSettings{};
  s.window->days_back = 10;
  s.window->chunk_days = 4;
  s.params = {{"from", "{start}"}, {"to", "{end}"}};
  auto run = RunResource(s, [](const http::Request&) { return Page(0, 1); });
  ASSERT_TRUE(run.stats.has_value()) << run.stats.error().ToString();
  EXPECT_THAT(Params(run.requests, "from"), ElementsAre("2026-02-05", "2026-02-09", "2026-02-13"));
  EXPECT_THAT(Params(run.requests, "to"), ElementsAre("2026-02-08", "2026-02-12", "2026-02-15"));
}

TEST(ProgressTest, EveryResponseIsReportedAsItArrivesWithTheCountsSoFar) {
  registry::Source s = DemoSource();
  registry::Pagination& p = s.resources[0].pagination;
  p.type = registry::PaginationType::kOffsetLimit;
  p.total_path = "meta.count";
  p.page_size = 2;
  std::vector<std::pair<int64_t, int64_t>> reported;  // (requests, records) per call
  int served = 0;
  auto client =
      http::HttpClient::WithTransport(std::make_shared<FakeTransport>([&](const http::Request& r) {
        // Each call must have seen every earlier response: the display moves page by page.
        EXPECT_EQ(reported.size(), static_cast<std::size_t>(served));
        ++served;
        const int offset = std::stoi(QueryParam(r.url, "offset"));
        return Page(offset, std::min(2, 5 - offset), {{"meta", {{"count", 5}}}});
      }));
  auto extractor = Extractor::Make(s, &client, TestContext());
  ASSERT_TRUE(extractor.has_value());
  duck::testing::TempDir dir;
  auto stats =
      extractor->ExtractToFolder(s.resources[0], dir.path(), [&](const ResourceStats& so_far) {
        reported.emplace_back(so_far.requests, so_far.extracted);
      });
  ASSERT_TRUE(stats.has_value()) << stats.error().ToString();
  EXPECT_THAT(reported,
              ElementsAre(std::pair<int64_t, int64_t>{1, 2}, std::pair<int64_t, int64_t>{2, 4},
                          std::pair<int64_t, int64_t>{3, 5}));
}

TEST(FolderTest, RecordsFromFolderNeedsAFinishedExtraction) {
  duck::testing::TempDir dir;
  const registry::Source s = DemoSource();
  auto stats = RecordsFromFolder(s, s.resources[0], dir.path(), [](Json) { return Ok(); });
  ASSERT_FALSE(stats.has_value());
  EXPECT_EQ(stats.error().kind, ErrorKind::kNotFound);
  EXPECT_THAT(stats.error().message, HasSubstr("source demo, resource items"));
}

TEST(FolderTest, StoredIndexHoldsRedactedUrlsOnly) {
  registry::Source s = DemoSource();
  s.auth = {registry::AuthType::kQuery, "apikey", registry::Secret("T", kSecret, true)};
  auto client = http::HttpClient::WithTransport(
      std::make_shared<FakeTransport>([](const http::Request&) { return Page(0, 2); }));
  auto extractor = Extractor::Make(s, &client, TestContext());
  ASSERT_TRUE(extractor.has_value());
  duck::testing::TempDir dir;
  auto stats = extractor->ExtractToFolder(s.resources[0], dir.path());
  ASSERT_TRUE(stats.has_value()) << stats.error().ToString();
  auto text = ReadFileBytes(dir.path() / "items" / kIndexFileName);
  ASSERT_TRUE(text.has_value());
  EXPECT_THAT(*text, HasSubstr("apikey="));
  EXPECT_THAT(*text, Not(HasSubstr(kSecret)));
  auto index = ReadPageIndex(dir.path() / "items");
  ASSERT_TRUE(index.has_value()) << index.error().ToString();
  ASSERT_EQ(index->pages.size(), 1u);
  EXPECT_EQ(index->pages[0].records, 2);
  EXPECT_EQ(index->pages[0].file, "page-000001.json");
  EXPECT_TRUE(std::filesystem::is_regular_file(dir.path() / "items" / "page-000001.json"));
}

// NDJSON pages: records are the lines (records_path applied to each), counted for offset/limit
// paging, stored as page-N.ndjson; a line that is not JSON fails the resource naming the URL.
TEST(NdjsonTest, LinesAreRecordsAcrossPagesAndABadLineFails) {
  registry::Source s = DemoSource();
  s.resources[0].format = registry::ResponseFormat::kNdjson;
  s.resources[0].records_path = "";
  registry::Pagination& p = s.resources[0].pagination;
  p.type = registry::PaginationType::kOffsetLimit;
  p.page_size = 2;
  auto run = RunResource(s, [](const http::Request& r) {
    const int offset = std::stoi(QueryParam(r.url, "offset"));
    std::string body;
    for (int i = offset; i < std::min(offset + 2, 3); ++i) {
      body += "{\"i\": " + std::to_string(i) + ", \"tags\": [\"t\"]}\r\n\n";
    }
    return http::Response{200, {}, body};
  });
  ASSERT_TRUE(run.stats.has_value()) << run.stats.error().ToString();
  EXPECT_THAT(Params(run.requests, "offset"), ElementsAre("0", "2"));
  ASSERT_EQ(run.records.size(), 3u);
  EXPECT_EQ(run.records[2].dump(), R"({"i":2,"tags":["t"]})");

  auto bad = RunResource(s, [](const http::Request&) {
    return http::Response{200, {}, "{\"i\": 1}\n{\"i\": \n"};
  });
  ASSERT_FALSE(bad.stats.has_value());
  EXPECT_EQ(bad.stats.error().kind, ErrorKind::kData);
  EXPECT_THAT(bad.stats.error().message, HasSubstr("NDJSON line 2"));
  EXPECT_THAT(bad.stats.error().message, HasSubstr("/items"));
  // Extraction reads every line of a page when it fetches it, so the bad line fails the resource
  // before the page is stored: not even the good line before it reaches the sink.
  EXPECT_TRUE(bad.records.empty()) << bad.records.size() << " record(s) fed";
}

TEST(ExtractorTest, RefusesOtherSourceKinds) {
  registry::Source s = DemoSource();
  s.kind = registry::SourceKind::kFile;
  auto client = http::HttpClient::WithTransport(
      std::make_shared<FakeTransport>([](const http::Request&) { return Page(0, 0); }));
  auto extractor = Extractor::Make(s, &client, TestContext());
  ASSERT_FALSE(extractor.has_value());
  EXPECT_EQ(extractor.error().kind, ErrorKind::kConfig);
}

}  // namespace
}  // namespace databox::source
