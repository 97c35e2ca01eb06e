#include "serve/status_site.h"

#include <string>
#include <utility>

#include "common/redact.h"
#include "report/html_page.h"
#include "report/redaction.h"

namespace databox::serve {
namespace {

PageReply Problem(const std::string& message) {
  return {500, "text/plain; charset=utf-8", Redact(message) + "\n"};
}

PageReply Page(const StatusSite& site) {
  auto records = refresh::RunHistory(site.state_dir).ReadAll();
  if (!records) return Problem(records.error().message);
  report::Report page = site.gather(std::move(*records));
  if (site.scheduler != nullptr) page.schedule = site.scheduler->State();
  page.reload_seconds = kPageReloadSeconds;
  return {200, "text/html; charset=utf-8", report::RenderReportHtml(page)};
}

PageReply RunsJson(const StatusSite& site) {
  auto records = refresh::RunHistory(site.state_dir).ReadAll();
  if (!records) return Problem(records.error().message);
  report::Report runs_only;
  runs_only.runs = refresh::NewestRuns(std::move(*records), site.options.runs);
  report::RedactReport(runs_only);
  nlohmann::ordered_json json = nlohmann::ordered_json::array();
  for (const auto& run : runs_only.runs) json.push_back(site.run_json(run));
  return {200, "application/json", json.dump(2) + "\n"};
}

PageReply ScheduleJson(const RefreshScheduler* scheduler) {
  nlohmann::ordered_json json = {{"schedule", "none"}};
  if (scheduler != nullptr) {
    const report::ScheduleState state = scheduler->State();
    json = {{"schedule", state.schedule},
            {"next_run_at", state.next_run_at},
            {"running_since", state.running_since.empty()
                                  ? nlohmann::ordered_json()
                                  : nlohmann::ordered_json(state.running_since)},
            {"started", state.started},
            {"finished", state.finished},
            {"skipped", state.skipped},
            {"last_exit_code", state.last_exit_code ? nlohmann::ordered_json(*state.last_exit_code)
                                                    : nlohmann::ordered_json()}};
  }
  return {200, "application/json", json.dump(2) + "\n"};
}

}  // namespace

PageReply Answer(const StatusSite& site, std::string_view path) {
  if (path == "/" || path == "/index.html") return Page(site);
  if (path == "/runs.json") return RunsJson(site);
  if (path == "/schedule.json") return ScheduleJson(site.scheduler);
  return {404, "text/plain; charset=utf-8", "not found: try /, /runs.json or /schedule.json\n"};
}

}  // namespace databox::serve
