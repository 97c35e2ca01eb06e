#include "report/timeline_html.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "common/clock.h"
#include "report/html_cells.h"

namespace databox::report {
namespace {

constexpr double kPercent = 100;

std::string Percent(double value) {
  char text[16];
  std::snprintf(text, sizeof text, "%.2f%%", std::clamp(value, 0.0, kPercent));
  return text;
}

std::string Bar(const std::string& cls, const std::string& name, const std::string& status,
                double left, double width, const std::string& title) {
  return "<span class=\"bar " + cls + " " + EscapeMarkup(status) + "\" data-name=\"" +
         EscapeMarkup(name) + "\" data-status=\"" + EscapeMarkup(status) +
         "\" style=\"left:" + Percent(left) + ";width:" + Percent(std::max(width, 0.5)) +
         "\" title=\"" + EscapeMarkup(title) + "\">" + EscapeMarkup(name) + "</span>";
}

std::string Row(const refresh::RunRecord& run) {
  const auto start = IsoToMillis(run.started_at), end = IsoToMillis(run.finished_at);
  const double span = start && end && *end > *start ? static_cast<double>(*end - *start) : 0;
  const std::string outcome(refresh::RunOutcomeName(run.exit_code));
  std::string row = "<div class=\"timeline-row " + outcome + "\" data-run-id=\"" +
                    EscapeMarkup(run.run_id) + "\"><span class=\"timeline-label nowrap\">" +
                    EscapeMarkup(run.command) + " " + EscapeMarkup(run.run_id) +
                    "</span><span class=\"track\">";
  for (const auto& source : run.sources) {
    const auto at = IsoToMillis(source.started_at);
    if (span <= 0 || !at) continue;
    const double millis = source.seconds * kMillisPerSecond;
    const std::string status(refresh::SourceStatusName(source.status));
    row += Bar("source", source.source, status, kPercent * (*at - *start) / span,
               kPercent * millis / span,
               source.source + " " + status + ", " + FormatDuration(std::llround(millis)));
  }
  if (span > 0 && run.transform_seconds) {
    const double millis = *run.transform_seconds * kMillisPerSecond;
    const std::string status(refresh::TransformStatusName(run.transform_status));
    row += Bar("transform", "transform", status, kPercent * (span - millis) / span,
               kPercent * millis / span,
               "transform " + status + ", " + FormatDuration(std::llround(millis)));
  }
  return row + "</span><span class=\"muted nowrap\">" +
         (span > 0 ? FormatDuration(std::llround(span)) : std::string("-")) + "</span></div>\n";
}

}  // namespace

std::string TimelineSection(const Report& report) {
  std::string html = "<h2>Timeline</h2>\n<div id=\"timeline\">\n";
  if (report.runs.empty()) html += "<p class=\"muted\">No runs recorded yet.</p>\n";
  for (const auto& run : report.runs) html += Row(run);
  return html + "</div>\n";
}

}  // namespace databox::report
