// What `databox serve` answers, path by path: the status page of `databox report` (made again
// for every request) at / and /index.html, the newest runs of the run history as JSON at
// /runs.json, the refresh schedule at /schedule.json, and 404 for any other path. What needs the
// command's session (the registry, the catalog's tables, the run's JSON form) comes in as
// functions; the rest is here.
#pragma once

#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <string_view>
#include <vector>

#include "refresh/run_history.h"
#include "report/report_gather.h"
#include "report/report_model.h"
#include "serve/page_server.h"
#include "serve/refresh_scheduler.h"

namespace databox::serve {

//! How often the served page reloads itself, so an open tab follows the runs.
inline constexpr int kPageReloadSeconds = 30;

struct StatusSite {
  std::filesystem::path state_dir;  //!< the run history's folder
  report::ReportOptions options;
  //! The report of the registry and the catalog's tables now, with `records` (oldest first)
  //! as its run history: report::GatherReport with the caller's registry and tables.
  std::function<report::Report(std::vector<refresh::RunRecord> records)> gather;
  //! One run as `databox runs show --json` prints it.
  std::function<nlohmann::ordered_json(const refresh::RunRecord& run)> run_json;
  const RefreshScheduler* scheduler = nullptr;  //!< none without --every or --at
};

//! The reply for `path`: a 500 naming (redacted) what could not be read.
PageReply Answer(const StatusSite& site, std::string_view path);

}  // namespace databox::serve
