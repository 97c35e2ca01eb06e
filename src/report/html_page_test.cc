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
  failed.phase = refresh::SourcePhase::kExtract;
  failed.error = std::string("extract failed: ") + kHostile;
  run.sources.push_back(failed);
  run.sources.push_back(SourceRun("gbif", refresh::SourceStatus::kOk));
  run.transform_status = refresh::TransformStatus::kFailed;
  run.transform_log_tail = std::string("Error: ") + kHostile;
  report.runs.push_back(run);

  report.tables.push_back({"raw_gbif.occurrences", 12, 2, 4096, "2026-11-30T02:00:04.000Z"});
  report.models.push_back({"analytics.x<y", "models/x.sql", {"raw_noaa.daily_weather"}});
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
  EXPECT_THAT(html, HasSubstr("<g class=\"node table disabled\" data-name=\"raw_noaa.taxonomy\">"));
}

}  // namespace
}  // namespace databox::report
