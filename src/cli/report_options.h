// The options `databox report` and `databox serve` share: how many runs the page shows and when
// a routine source is stale.
#pragma once

#include <CLI/CLI.hpp>

#include "report/report_gather.h"

namespace databox::cli {

//! What --runs and --stale-after parsed.
struct ReportViewArgs {
  int runs = 20;
  int stale_after_hours = 0;  //!< set to report::kDefaultStaleAfterHours by AddReportViewOptions

  report::ReportOptions ToOptions() const;
};

//! Declares --runs N and --stale-after HOURS on `app`, bound to `args`.
void AddReportViewOptions(CLI::App& app, ReportViewArgs& args);

}  // namespace databox::cli
