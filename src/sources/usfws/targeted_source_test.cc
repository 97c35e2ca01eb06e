#include "sources/usfws/targeted_source.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "sources/usfws/test_util.h"
#include "sources/usfws/usfws_rows.h"

namespace databox::source {
namespace {

using ::testing::HasSubstr;
using testing::ScriptedSite;
using testing::SearchBody;
using testing::UsfwsFixture;

registry::Source Usfws() {
  registry::Source source;
  source.name = "usfws";
  source.kind = registry::SourceKind::kTargeted;
  for (const char* table : {"image_search_runs", "image_records"}) {
    registry::Resource resource;
    resource.name = table;
    source.resources.push_back(resource);
  }
  return source;
}

TransportMaker Serve(std::shared_ptr<ScriptedSite> site) {
  return [site]() -> Result<std::shared_ptr<http::Transport>> { return site; };
}

TEST(TargetedSourceTest, RefusesWithoutTargetsOrDeclaredTables) {
  const registry::Source source = Usfws();
  auto site = std::make_shared<ScriptedSite>();
  TargetedSource none(source, std::nullopt, Serve(site), true);
  ASSERT_FALSE(none.CanRun().has_value());
  EXPECT_EQ(none.CanRun().error().message,
            "source usfws runs only with caller-supplied targets: `databox run usfws --targets "
            "FILE`");
  EXPECT_FALSE(none.Resumable());

  registry::Source undeclared = Usfws();
  undeclared.resources.pop_back();
  TargetedRequest request{{{"rufhum", "Rufous Hummingbird", "Selasphorus rufus", 1}}, {}};
  TargetedSource partial(undeclared, request, Serve(site), true);
  ASSERT_FALSE(partial.CanRun().has_value());
  EXPECT_THAT(partial.CanRun().error().message,
              HasSubstr("does not declare the table image_records"));
  EXPECT_TRUE(site->requests().empty());
}

TEST(TargetedSourceTest, ExtractsOnceAndFeedsBothTablesWithTheirTypes) {
  const registry::Source source = Usfws();
  const Target rufhum{"rufhum", "Rufous Hummingbird", "Selasphorus rufus", 1};
  auto site = std::make_shared<ScriptedSite>();
  const auto queries = QueriesFor(rufhum);
  site->Add(PageUrl(queries[0], 0), 200,
            SearchBody(1, {UsfwsFixture("card_perched.html")}, "species", "Rufous Hummingbird"));
  site->Add(PageUrl(queries[1], 0), 200, R"({"list":[],"_meta":{"total":0}})");
  site->Add(PageUrl(queries[2], 0), 200, R"({"list":[],"_meta":{"total":0}})");
  UsfwsRunOptions options;
  options.run_id = "fixture-run";
  options.loaded_at = "2026-08-03T12:00:00Z";
  options.request_max_attempts = 2;
  TargetedSource targeted(source, TargetedRequest{{rufhum}, options}, Serve(site), true);
  ASSERT_TRUE(targeted.CanRun().has_value());
  const Package package{"1", "/nonexistent", "/nonexistent/extract"};
  auto report = targeted.Extract(package, nullptr);
  ASSERT_TRUE(report.has_value()) << report.error().ToString();
  EXPECT_THAT(report->notes, ::testing::Contains("run id fixture-run"));
  EXPECT_THAT(report->notes, ::testing::Contains("replay: retry waits recorded, not slept: 1 s"));

  const auto resources = targeted.Resources();
  ASSERT_EQ(resources.size(), 2u);
  EXPECT_EQ(resources[0]->name, "image_search_runs");
  EXPECT_EQ(resources[0]->primary_key, std::vector<std::string>{"run_id"});
  EXPECT_EQ(resources[0]->write_disposition, registry::WriteDisposition::kMerge);
  EXPECT_EQ(resources[0]->columns.at("started_at").type, "timestamp");
  EXPECT_EQ(resources[0]->columns.at("run_id").nullable, false);
  EXPECT_EQ(resources[1]->primary_key,
            (std::vector<std::string>{"run_id", "species_code", "source_page_url"}));
  EXPECT_EQ(resources[1]->columns.at("search_result_width").type, "bigint");
  EXPECT_EQ(resources[1]->columns.at("search_result_published_at").type, "text");
  EXPECT_EQ(resources[1]->columns.at("source_title").nullable, true);

  std::vector<Json> runs, records;
  ASSERT_TRUE(targeted.Feed(*resources[0], package, [&](Json row) -> Status {
    runs.push_back(std::move(row));
    return Ok();
  }));
  ASSERT_TRUE(targeted.Feed(*resources[1], package, [&](Json row) -> Status {
    records.push_back(std::move(row));
    return Ok();
  }));
  ASSERT_EQ(runs.size(), 1u);
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0]["detail_fetch_status"], "unavailable_after_retries");  // not scripted
}

TEST(TargetedSourceTest, AnAbortFeedsNothing) {
  const registry::Source source = Usfws();
  auto site = std::make_shared<ScriptedSite>();  // every search misses: retries run out
  UsfwsRunOptions options;
  options.request_max_attempts = 1;
  TargetedSource targeted(
      source, TargetedRequest{{{"rufhum", "Rufous Hummingbird", "Selasphorus rufus", 1}}, options},
      Serve(site), true);
  const Package package{"1", "/nonexistent", "/nonexistent/extract"};
  auto report = targeted.Extract(package, nullptr);
  ASSERT_FALSE(report.has_value());
  EXPECT_THAT(report.error().message, HasSubstr("source usfws"));
  EXPECT_THAT(report.error().message, HasSubstr("nothing is loaded"));
  auto fed = targeted.Feed(*targeted.Resources()[0], package, [](Json) -> Status { return Ok(); });
  EXPECT_FALSE(fed.has_value());
}

}  // namespace
}  // namespace databox::source
