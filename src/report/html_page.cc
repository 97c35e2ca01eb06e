#include "report/html_page.h"

#include <cmath>
#include <cstdio>

#include "common/clock.h"
#include "common/markup_escape.h"
#include "report/health_html.h"
#include "report/html_cells.h"
#include "report/lineage_svg.h"
#include "report/page_assets.h"
#include "report/timeline_html.h"

namespace databox::report {
namespace {

constexpr int64_t kSecondsPerHour = 3600;

std::string Optional(const std::optional<int64_t>& value) {
  return value ? std::to_string(*value) : "-";
}

std::string Bytes(const std::optional<int64_t>& bytes) {
  if (!bytes) return "-";
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double value = static_cast<double>(*bytes);
  int unit = 0;
  while (value >= 1024 && unit < 4) {
    value /= 1024;
    ++unit;
  }
  char text[32];
  std::snprintf(text, sizeof text, unit == 0 ? "%.0f %s" : "%.1f %s", value, units[unit]);
  return text;
}

std::string Head(const Report& report) {
  return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
         "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n" +
         (report.reload_seconds > 0 ? "<meta http-equiv=\"refresh\" content=\"" +
                                          std::to_string(report.reload_seconds) + "\">\n"
                                    : std::string()) +
         "<title>Databox status: " + EscapeMarkup(report.project) + "</title>\n<style>" +
         std::string(PageStyle()) + "</style>\n</head>\n";
}

//! The refresh schedule of `databox serve`, or "" when the page has none.
std::string ScheduleLine(const Report& report) {
  if (!report.schedule) return "";
  const ScheduleState& schedule = *report.schedule;
  std::string line = "<p id=\"schedule\" data-next-run=\"" + EscapeMarkup(schedule.next_run_at) +
                     "\">Scheduled refresh: " + EscapeMarkup(schedule.schedule) +
                     "; next run at <time>" + EscapeMarkup(schedule.next_run_at) + "</time>";
  if (!schedule.running_since.empty()) {
    line += "; one running since <time>" + EscapeMarkup(schedule.running_since) + "</time>";
  }
  return line + ".</p>\n";
}

std::string Intro(const Report& report) {
  return "<h1>Databox status: " + EscapeMarkup(report.project) +
         "</h1>\n<p class=\"muted\">Written at <time id=\"generated-at\">" +
         EscapeMarkup(report.generated_at) +
         "</time>. A routine source is stale when its last successful load is more than " +
         std::to_string(report.stale_after_seconds / kSecondsPerHour) +
         " h old (the registry holds no schedule).</p>\n" + ScheduleLine(report) +
         "<div id=\"summary\"><noscript>The summary and ages as of now need JavaScript; the "
         "ages below are as of writing.</noscript></div>\n";
}

std::string ResourcesText(const SourceState& source) {
  std::string html;
  for (const auto& resource : source.resources) {
    if (!html.empty()) html += ", ";
    html += resource.enabled ? EscapeMarkup(resource.name)
                             : "<span class=\"disabled\" title=\"enabled = false\">" +
                                   EscapeMarkup(resource.name) + " (disabled)</span>";
  }
  return html;
}

std::string SourceRow(const SourceState& source) {
  const std::string freshness(FreshnessName(source.freshness));
  std::string row = "<tr class=\"source " + freshness + "\" data-source=\"" +
                    EscapeMarkup(source.name) + "\" data-freshness=\"" + freshness +
                    "\" data-routine=\"" + (source.routine ? "true" : "false") + "\">";
  row += "<td><strong class=\"nowrap\">" + EscapeMarkup(source.name) +
         "</strong><br><span class=\"muted\">" + EscapeMarkup(source.description) + "</span></td>";
  row += "<td class=\"freshness\">" + Badge(freshness) +
         (source.routine ? "" : "<br><span class=\"muted\">explicit: runs when named</span>") +
         "</td>";
  row += Cell(source.last_ok_at.empty() ? "never" : source.last_ok_at, "nowrap");
  if (source.last_ok_millis && source.age_seconds) {
    row += "<td class=\"age\" data-at-millis=\"" + std::to_string(*source.last_ok_millis) + "\">" +
           EscapeMarkup(FormatDuration(*source.age_seconds * kMillisPerSecond)) + " ago</td>";
  } else {
    row += Cell("-", "age");
  }
  row += Cell(source.last_ok_at.empty() ? "-" : std::to_string(source.last_ok_rows), "num");
  row += "<td>" + ResourcesText(source) + "</td>";
  row += source.last_failure_at.empty()
             ? Cell("-")
             : "<td class=\"error\">" + EscapeMarkup(source.last_failure_at) + ": " +
                   EscapeMarkup(source.last_failure_error) + "</td>";
  return row + "</tr>\n";
}

std::string SourcesSection(const Report& report) {
  std::string html =
      "<h2>Sources</h2>\n<table id=\"sources\"><thead><tr><th>source</th><th>freshness</th>"
      "<th>last successful load</th><th>age</th><th>rows</th><th>resources</th>"
      "<th>failure since that load</th></tr></thead><tbody>\n";
  for (const auto& source : report.sources) html += SourceRow(source);
  return html + "</tbody></table>\n";
}

std::string SourceRunRows(const refresh::SourceRun& run) {
  const std::string status(refresh::SourceStatusName(run.status));
  std::string row = "<tr class=\"source-run " + status + "\" data-source=\"" +
                    EscapeMarkup(run.source) + "\" data-status=\"" + status + "\">";
  row += Cell(run.source, "nowrap") + "<td>" + Badge(status) + "</td>" +
         Cell(std::string(refresh::OptionalPhaseName(run.phase))) +
         Cell(std::to_string(run.rows), "num") +
         Cell(run.status == refresh::SourceStatus::kNotStarted
                  ? "-"
                  : FormatDuration(std::llround(run.seconds * kMillisPerSecond)),
              "num") +
         Cell(run.started_at, "nowrap") + Cell(run.load_id, "nowrap");
  std::string snapshots;
  for (const auto& [table, id] : run.snapshots) {
    snapshots += (snapshots.empty() ? "" : ", ") + table + " " + std::to_string(id);
  }
  row += Cell(snapshots.empty() ? "-" : snapshots) + "</tr>\n";
  if (!run.error.empty()) {
    row += "<tr class=\"source-error\"><td colspan=\"8\" class=\"error\">" +
           EscapeMarkup(run.error) + "</td></tr>\n";
  }
  for (const auto& note : run.notes) {
    row +=
        "<tr class=\"source-note\"><td colspan=\"8\" class=\"muted\">note: " + EscapeMarkup(note) +
        "</td></tr>\n";
  }
  return row;
}

std::string RunDuration(const refresh::RunRecord& run) {
  const auto start = IsoToMillis(run.started_at), end = IsoToMillis(run.finished_at);
  return start && end && *end >= *start ? FormatDuration(*end - *start) : "-";
}

//! The errors of the models a failed transform names, open at the top of its card.
std::string TransformErrors(const refresh::RunRecord& run) {
  std::string html;
  for (const auto& model : run.transform_models) {
    if (model.status != refresh::ModelStatus::kFailed) continue;
    html += "<div class=\"transform-error\" data-model=\"" + EscapeMarkup(model.name) +
            "\"><strong class=\"nowrap\">" + EscapeMarkup(model.name) +
            "</strong> failed<pre class=\"error\">" + EscapeMarkup(model.error) + "</pre></div>\n";
  }
  return html;
}

//! The transform's line and log; "" for `run`, `ingest` and `publish`, which never run it.
std::string TransformPart(const refresh::RunRecord& run) {
  if (run.command == "run" || run.command == "ingest" || run.command == "publish") return "";
  const std::string status(refresh::TransformStatusName(run.transform_status));
  std::string html =
      "<p class=\"transform\" data-status=\"" + status + "\">transform: " + Badge(status) +
      (run.transform_exit_code ? " exit code " + std::to_string(*run.transform_exit_code) : "") +
      "</p>\n";
  if (!run.transform_log_tail.empty()) {
    html +=
        std::string("<details class=\"log-tail\"") +
        (run.transform_status == refresh::TransformStatus::kFailed && TransformErrors(run).empty()
             ? " open"
             : "") +
        "><summary>transform log tail</summary><pre>" + EscapeMarkup(run.transform_log_tail) +
        "</pre></details>\n";
  }
  return html;
}

std::string InspectionPart(const refresh::RunRecord& run) {
  if (run.command != "refresh") return "";
  if (run.inspection_problems.empty()) {
    return std::string("<p class=\"inspection\">inspection: ") +
           (run.inspection_ok ? "ok" : "not run") + "</p>\n";
  }
  std::string html = "<p class=\"inspection\">inspection problems:</p><ul class=\"error\">";
  for (const auto& problem : run.inspection_problems)
    html += "<li>" + EscapeMarkup(problem) + "</li>";
  return html + "</ul>\n";
}

std::string RunSection(const refresh::RunRecord& run) {
  const std::string outcome(refresh::RunOutcomeName(run.exit_code));
  std::string html = "<section class=\"run " + outcome + "\" data-status=\"" + outcome +
                     "\" data-run-id=\"" + EscapeMarkup(run.run_id) + "\">\n<header>" +
                     Badge(outcome) + " " + EscapeMarkup(run.command) + " " +
                     EscapeMarkup(run.run_id) + " <span class=\"muted\">took " +
                     EscapeMarkup(RunDuration(run)) + ", finished " +
                     EscapeMarkup(run.finished_at) + "</span></header>\n";
  // A failed transform's errors come first: the reason a run failed is read without scrolling.
  const bool transform_failed = run.transform_status == refresh::TransformStatus::kFailed;
  if (transform_failed) html += TransformErrors(run) + TransformPart(run);
  if (!run.sources.empty()) {
    html +=
        "<table class=\"run-sources\"><thead><tr><th>source</th><th>status</th><th>failed "
        "in</th><th>rows</th><th>took</th><th>started</th><th>load id</th><th>new "
        "snapshots</th></tr></thead><tbody>\n";
    for (const auto& source : run.sources) html += SourceRunRows(source);
    html += "</tbody></table>\n";
  }
  return html + InspectionPart(run) + (transform_failed ? "" : TransformPart(run)) + "</section>\n";
}

std::string RunsSection(const Report& report) {
  std::string html = "<h2>Recent runs</h2>\n<div id=\"runs\">\n";
  if (report.runs.empty()) html += "<p class=\"muted\">No runs recorded yet.</p>\n";
  for (const auto& run : report.runs) html += RunSection(run);
  return html + "</div>\n";
}

//! The age of `at` as of writing, made again as of viewing by the page's script.
std::string AgeCell(const std::string& at, int64_t now_millis) {
  const auto millis = IsoToMillis(at);
  if (!millis) return Cell("-", "age");
  return "<td class=\"age nowrap\" data-at-millis=\"" + std::to_string(*millis) + "\">" +
         EscapeMarkup(FormatDuration(now_millis - *millis)) + " ago</td>";
}

std::string TablesSection(const Report& report) {
  std::string html = "<h2>Tables</h2>\n";
  if (!report.tables_problem.empty()) {
    html += "<p class=\"error\" id=\"tables-problem\">" + EscapeMarkup(report.tables_problem) +
            "</p>\n";
  }
  html +=
      "<table id=\"tables\"><thead><tr><th>table</th><th>rows</th><th>snapshots</th>"
      "<th>size</th><th>current snapshot</th><th>last loaded</th><th>age</th></tr></thead>"
      "<tbody>\n";
  for (const auto& table : report.tables) {
    html += "<tr class=\"table\" data-table=\"" + EscapeMarkup(table.table) + "\">" +
            Cell(table.table, "nowrap") + Cell(Optional(table.rows), "num") +
            Cell(std::to_string(table.snapshots), "num") + Cell(Bytes(table.bytes), "num") +
            Cell(table.snapshot_time.empty() ? "-" : table.snapshot_time, "nowrap") +
            Cell(table.loaded_at.empty() ? "-" : table.loaded_at, "nowrap") +
            AgeCell(table.loaded_at, report.generated_millis) + "</tr>\n";
  }
  return html + "</tbody></table>\n";
}

std::string LineageSection(const Report& report) {
  std::string html =
      "<h2>Lineage</h2>\n<p class=\"muted\">Sources, the raw tables they load, and the "
      "transform models whose SQL names those tables or other models, coloured by status "
      "(red: failed).</p>\n";
  if (!report.models_problem.empty()) {
    html += "<p class=\"error\" id=\"models-problem\">" + EscapeMarkup(report.models_problem) +
            "</p>\n";
  }
  html += "<div id=\"lineage\">" + LineageSvg(report) + "</div>\n";
  html +=
      "<table id=\"models\"><thead><tr><th>model</th><th>file</th><th>reads</th></tr>"
      "</thead><tbody>\n";
  for (const auto& model : report.models) {
    std::string reads;
    for (const auto& read : model.reads) reads += (reads.empty() ? "" : ", ") + read;
    for (const auto& read : model.models_read) reads += (reads.empty() ? "" : ", ") + read;
    html += "<tr class=\"model\" data-model=\"" + EscapeMarkup(model.model) + "\">" +
            Cell(model.model, "nowrap") + Cell(model.file, "nowrap") +
            Cell(reads.empty() ? "-" : reads) + "</tr>\n";
  }
  return html + "</tbody></table>\n";
}

}  // namespace

std::string RenderReportHtml(const Report& report) {
  return Head(report) + "<body data-generated-millis=\"" + std::to_string(report.generated_millis) +
         "\" data-stale-after-ms=\"" +
         std::to_string(report.stale_after_seconds * kMillisPerSecond) + "\">\n" + Intro(report) +
         AttentionSection(report) + SourcesSection(report) + ModelsSection(report) +
         TimelineSection(report) + RunsSection(report) + TablesSection(report) +
         LineageSection(report) + "<script>" + std::string(PageScript()) +
         "</script>\n</body>\n</html>\n";
}

}  // namespace databox::report
