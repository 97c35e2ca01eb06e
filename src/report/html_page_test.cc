// The status page's HTML: escaping of every text, failed runs drawn as failed, nothing fetched.
#include "report/html_page.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <regex>

namespace databox::report {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

constexpr char kHostile[] = "<script>alert('x')</script>&\"";

refresh::SourceRun SourceRun(std::string name, refresh::SourceStatus status) {
  refresh::SourceRun run;
  run.source = std::move(name);
  run.status = status;
  run.started_at = "2026-11-30T02:00:00.000Z";
  run.seconds = 1.5;
  return run;
}

Report FailedRunReport() {
  Report report;
  report.project = "demo";
  report.generated_at = "2026-11-30T03:00:00.000Z";
  report.generated_millis = 1'796'007'600'000;
  report.stale_after_seconds = 26 * 3600;
  SourceState noaa;
  noaa.name = "noaa";
  noaa.description = kHostile;
  noaa.resources = {{"daily_weather", true}, {"taxonomy", false}};
  noaa.freshness = Freshness::kNever;
  noaa.last_failure_at = "2026-11-30T02:00:05.000Z";
  noaa.last_failure_error = std::string("HTTP 500 ") + kHostile;
  report.sources.push_back(noaa);

  refresh::RunRecord run;
  run.run_id = "2026-11-30T02:00:00.000Z";
  run.command = "refresh";
  run.started_at = "2026-11-30T02:00:00.000Z";
  run.finished_at = "2026-11-30T02:00:05.000Z";
  run.exit_code = ExitCode::kRunFailed;
  auto failed = SourceRun("noaa", refresh::SourceStatus::kFailed);
  failed.phase = refresh::Phase::kExtract;
  failed.error = std::string("extract failed: ") + kHostile;
  run.sources.push_back(failed);
  run.sources.push_back(SourceRun("gbif", refresh::SourceStatus::kOk));
  run.transform_status = refresh::TransformStatus::kFailed;
  run.transform_log_tail = std::string("Error: ") + kHostile;
  report.runs.push_back(run);

  report.tables.push_back({"raw_gbif.occurrences", 12, 2, 4096, "2026-11-30T02:00:04.000Z", ""});
  report.models.push_back({"analytics.x<y", "models/x.sql", {"raw_noaa.daily_weather"}, {}});
  return report;
}

TEST(HtmlPageTest, EveryTextIsEscaped) {
  const std::string html = RenderReportHtml(FailedRunReport());
  EXPECT_THAT(html, Not(HasSubstr("<script>alert")));
  EXPECT_THAT(html, Not(HasSubstr("alert('x')")));
  EXPECT_THAT(html, HasSubstr("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;&quot;"));
  EXPECT_THAT(html, HasSubstr("analytics.x&lt;y"));
  // The one script element is the page's own.
  const std::regex script_open("<script");
  EXPECT_EQ(std::distance(std::sregex_iterator(html.begin(), html.end(), script_open),
                          std::sregex_iterator()),
            1);
}

TEST(HtmlPageTest, AFailedRunIsDrawnAsFailedWithItsErrorAndLogTail) {
  const std::string html = RenderReportHtml(FailedRunReport());
  EXPECT_THAT(html, HasSubstr("<section class=\"run failed\" data-status=\"failed\" "
                              "data-run-id=\"2026-11-30T02:00:00.000Z\">"));
  EXPECT_THAT(html, HasSubstr("<tr class=\"source-run failed\" data-source=\"noaa\" "
                              "data-status=\"failed\">"));
  EXPECT_THAT(html, HasSubstr("<tr class=\"source-run ok\" data-source=\"gbif\""));
  EXPECT_THAT(html, HasSubstr(">extract<"));
  EXPECT_THAT(html, HasSubstr("extract failed: &lt;script&gt;"));
  EXPECT_THAT(html, HasSubstr("<details class=\"log-tail\" open>"));
  EXPECT_THAT(html, HasSubstr("Error: &lt;script&gt;"));
  EXPECT_THAT(html, HasSubstr("taxonomy (disabled)"));
}

TEST(HtmlPageTest, AnOkRunIsNotDrawnAsFailed) {
  Report report = FailedRunReport();
  report.runs[0].exit_code = ExitCode::kOk;
  report.runs[0].sources.erase(report.runs[0].sources.begin());
  report.runs[0].transform_status = refresh::TransformStatus::kOk;
  report.sources[0].last_failure_at.clear();
  const std::string html = RenderReportHtml(report);
  EXPECT_THAT(html, HasSubstr("<section class=\"run ok\" data-status=\"ok\""));
  EXPECT_THAT(html, Not(HasSubstr("data-status=\"failed\"")));
  EXPECT_THAT(html, Not(HasSubstr("<details class=\"log-tail\" open>")));
}

TEST(HtmlPageTest, NothingIsFetchedFromAnywhere) {
  const std::string html = RenderReportHtml(FailedRunReport());
  for (const char* fetch : {"http:", "https:", "src=", "href=", "url(", "@import", "//cdn",
                            "fetch(", "XMLHttpRequest", "<link", "<iframe", "<img"}) {
    EXPECT_THAT(html, Not(HasSubstr(fetch))) << fetch;
  }
  EXPECT_THAT(html, HasSubstr("Content-Security-Policy\" content=\"default-src 'none';"));
}

TEST(HtmlPageTest, LineageDrawsSourceToTableToModel) {
  const std::string html = RenderReportHtml(FailedRunReport());
  EXPECT_THAT(html, HasSubstr("<svg id=\"lineage-graph\""));
  EXPECT_THAT(html, HasSubstr("data-from=\"noaa\" data-to=\"raw_noaa.daily_weather\""));
  EXPECT_THAT(html, HasSubstr("data-from=\"raw_noaa.daily_weather\" data-to=\"analytics.x&lt;y\""));
  EXPECT_THAT(html, HasSubstr("<g class=\"node table disabled failed\" "
                              "data-name=\"raw_noaa.taxonomy\" data-status=\"failed\">"));
}

//! FailedRunReport with a transform whose model analytics.bad failed and analytics.good, which
//! reads it, was skipped.
Report FailedModelReport() {
  Report report = FailedRunReport();
  refresh::RunRecord& run = report.runs[0];
  run.transform_models = {
      {"analytics.bad", refresh::ModelStatus::kFailed, "", std::nullopt, "", "Binder Error: boom"}};
  run.transform_log_tail = "a long log\n";
  report.models.push_back({"analytics.bad", "models/bad.sql", {"raw_noaa.daily_weather"}, {}});
  report.models.push_back({"analytics.good", "models/good.sql", {}, {"analytics.bad"}});
  report.model_health = {
      {"analytics.bad", "failed", "", std::nullopt, "", "Binder Error: boom", run.run_id},
      {"analytics.good", "ok", "2026-11-30T01:00:00.000Z", 5, "passed 1", "", "r0"}};
  return report;
}

TEST(HtmlPageTest, AFailedModelIsRedFirstInModelsAndItsErrorOpensThePage) {
  const std::string html = RenderReportHtml(FailedModelReport());
  // "Needs attention" comes before every other section and holds the model's error.
  const auto attention = html.find("<section id=\"attention\" class=\"failed\">");
  ASSERT_NE(attention, std::string::npos) << html;
  EXPECT_LT(attention, html.find("id=\"sources\""));
  const auto item = html.find("data-kind=\"model\" data-name=\"analytics.bad\"");
  ASSERT_NE(item, std::string::npos);
  EXPECT_LT(html.find("Binder Error: boom", item), html.find("id=\"sources\""));
  // The Models table: failed first, red, with its error; the other with its build and rows.
  const auto bad = html.find("<tr class=\"model-health failed\" data-model=\"analytics.bad\"");
  const auto good = html.find("<tr class=\"model-health ok\" data-model=\"analytics.good\"");
  ASSERT_NE(bad, std::string::npos) << html;
  ASSERT_NE(good, std::string::npos) << html;
  EXPECT_LT(bad, good);
  EXPECT_THAT(html.substr(good, 400), HasSubstr("2026-11-30T01:00:00.000Z"));
  EXPECT_THAT(html.substr(good, 400), HasSubstr("passed 1"));
  // The run card: the model's error before the sources table, the log folded.
  const auto card = html.find("<section class=\"run failed\"");
  const auto error =
      html.find("<div class=\"transform-error\" data-model=\"analytics.bad\">", card);
  ASSERT_NE(error, std::string::npos) << html;
  EXPECT_LT(error, html.find("<table class=\"run-sources\">", card));
  EXPECT_THAT(html, Not(HasSubstr("<details class=\"log-tail\" open>")));
}

TEST(HtmlPageTest, LineageIsColouredByStatusWithModelToModelEdges) {
  const std::string html = RenderReportHtml(FailedModelReport());
  EXPECT_THAT(html, HasSubstr("<path class=\"edge failed\" data-from=\"raw_noaa.daily_weather\" "
                              "data-to=\"analytics.bad\" data-status=\"failed\""));
  EXPECT_THAT(html, HasSubstr("<g class=\"node model failed\" data-name=\"analytics.bad\""));
  EXPECT_THAT(html, HasSubstr("<path class=\"edge ok\" data-from=\"analytics.bad\" "
                              "data-to=\"analytics.good\" data-status=\"ok\""));
}

TEST(HtmlPageTest, IngestCardsHaveNoTransformLineAndEveryRunHasATimelineRow) {
  Report report = FailedRunReport();
  refresh::RunRecord ingest = report.runs[0];
  ingest.command = "ingest";
  ingest.run_id = "ingest-1";
  ingest.transform_status = refresh::TransformStatus::kNotRun;
  ingest.transform_log_tail.clear();
  ingest.sources.resize(1);
  ingest.exit_code = ExitCode::kOk;
  ingest.sources[0].status = refresh::SourceStatus::kOk;
  report.runs.insert(report.runs.begin(), ingest);
  const std::string html = RenderReportHtml(report);
  const auto card = html.find("data-run-id=\"ingest-1\">\n<header>");
  ASSERT_NE(card, std::string::npos) << html;
  const std::string ingest_card = html.substr(card, html.find("</section>", card) - card);
  EXPECT_THAT(ingest_card, Not(HasSubstr("transform:")));
  EXPECT_THAT(html, HasSubstr("transform: <span class=\"badge failed\">"));  // the refresh's
  // One timeline row per run; the noaa bar failed, from 0 % over 30 % of the 5 s run.
  EXPECT_THAT(html, HasSubstr("<div class=\"timeline-row ok\" data-run-id=\"ingest-1\">"));
  EXPECT_THAT(html, HasSubstr("<span class=\"bar source failed\" data-name=\"noaa\" "
                              "data-status=\"failed\" style=\"left:0.00%;width:30.00%\""));
}

TEST(HtmlPageTest, NamesIdsAndTimesDoNotWrapAndTheServedPageReloads) {
  Report report = FailedRunReport();
  std::string html = RenderReportHtml(report);
  EXPECT_THAT(html, Not(HasSubstr("overflow-wrap: anywhere")));
  EXPECT_THAT(html, HasSubstr(".nowrap, time { white-space: nowrap; }"));
  EXPECT_THAT(html, HasSubstr("<td class=\"nowrap\">2026-11-30T02:00:00.000Z</td>"));
  EXPECT_THAT(html, HasSubstr("<td class=\"nowrap\">raw_gbif.occurrences</td>"));
  EXPECT_THAT(html, Not(HasSubstr("http-equiv=\"refresh\"")));
  report.reload_seconds = 30;
  html = RenderReportHtml(report);
  EXPECT_THAT(html, HasSubstr("<meta http-equiv=\"refresh\" content=\"30\">"));
}

}  // namespace
}  // namespace databox::report
