#include "report/health_html.h"

#include "report/html_cells.h"

namespace databox::report {
namespace {

std::string Item(const std::string& kind, const std::string& name, const std::string& what,
                 const std::string& error) {
  return "<li class=\"attention-item\" data-kind=\"" + kind + "\" data-name=\"" +
         EscapeMarkup(name) + "\"><strong class=\"nowrap\">" + EscapeMarkup(name) + "</strong> " +
         EscapeMarkup(what) +
         (error.empty() ? "" : "<pre class=\"error\">" + EscapeMarkup(error) + "</pre>") +
         "</li>\n";
}

}  // namespace

std::string AttentionSection(const Report& report) {
  std::string items;
  for (const auto& model : report.model_health) {
    if (model.status != "failed") continue;
    items += Item("model", model.model, "model failed in run " + model.run_id, model.error);
  }
  for (const auto& source : report.sources) {
    if (!source.last_failure_at.empty()) {
      items += Item("source", source.name, "source failed at " + source.last_failure_at,
                    source.last_failure_error);
    } else if (source.freshness == Freshness::kStale) {
      items += Item("source", source.name, "source is stale: last loaded " + source.last_ok_at, "");
    }
  }
  if (!report.runs.empty() && report.runs.front().exit_code != ExitCode::kOk) {
    const auto& run = report.runs.front();
    items += Item(
        "run", run.run_id,
        "newest run (" + run.command + ") " + std::string(refresh::RunOutcomeName(run.exit_code)),
        "");
  }
  if (items.empty()) {
    return "<section id=\"attention\" class=\"ok\"><h2>Needs attention</h2><p>Nothing: every "
           "model and source is healthy.</p></section>\n";
  }
  return "<section id=\"attention\" class=\"failed\"><h2>Needs attention</h2><ul>\n" + items +
         "</ul></section>\n";
}

std::string ModelsSection(const Report& report) {
  std::string html =
      "<h2>Models</h2>\n<table id=\"model-health\"><thead><tr><th>model</th><th>status</th>"
      "<th>last built</th><th>rows</th><th>audits</th><th>error</th></tr></thead><tbody>\n";
  if (report.model_health.empty()) {
    html += "<tr><td colspan=\"6\" class=\"muted\">No models found.</td></tr>\n";
  }
  for (const auto& model : report.model_health) {
    html += "<tr class=\"model-health " + EscapeMarkup(model.status) + "\" data-model=\"" +
            EscapeMarkup(model.model) + "\" data-status=\"" + EscapeMarkup(model.status) + "\">" +
            Cell(model.model, "nowrap") + "<td>" + Badge(model.status) + "</td>" +
            Cell(model.built_at.empty() ? "never" : model.built_at, "nowrap") +
            Cell(model.rows ? std::to_string(*model.rows) : "-", "num") +
            Cell(model.audits.empty() ? "-" : model.audits) +
            (model.error.empty()
                 ? Cell("-")
                 : "<td class=\"error\"><pre>" + EscapeMarkup(model.error) + "</pre></td>") +
            "</tr>\n";
  }
  return html + "</tbody></table>\n";
}

}  // namespace databox::report
