#include "cli/report_options.h"

#include <string>

#include "cli/command.h"
#include "cli/commands.h"
#include "report/freshness.h"

namespace databox::cli {
namespace {

constexpr int64_t kSecondsPerHour = 3600;

}  // namespace

report::ReportOptions ReportViewArgs::ToOptions() const {
  return report::ReportOptions{static_cast<std::size_t>(runs),
                               int64_t{stale_after_hours} * kSecondsPerHour};
}

void AddReportViewOptions(CLI::App& app, ReportViewArgs& args) {
  args.stale_after_hours = report::kDefaultStaleAfterHours;
  app.add_option("--runs", args.runs, "show the newest N runs (default 20)")
      ->option_text("N")
      ->check(WholeNumberAtLeastOne());
  app.add_option("--stale-after", args.stale_after_hours,
                 "hours after which a routine source's last load is stale (default " +
                     std::to_string(report::kDefaultStaleAfterHours) + ")")
      ->option_text("HOURS")
      ->check(WholeNumberAtLeastOne());
}

}  // namespace databox::cli
