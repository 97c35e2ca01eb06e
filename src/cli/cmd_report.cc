// `databox report --out FILE.html`: the status page (docs/report.md), one self-contained HTML
// file of the sources' freshness, the recent runs, the tables and the lineage. Reads the
// registry, the run history, the catalog's metadata and the model files; writes only FILE.
#include <memory>
#include <string>

#include "cli/catalog_tables.h"
#include "cli/commands.h"
#include "cli/output.h"
#include "cli/report_options.h"
#include "cli/session.h"
#include "common/exit_code.h"
#include "fileio/durable.h"
#include "refresh/run_history.h"
#include "report/html_page.h"
#include "report/report_gather.h"

namespace databox::cli {
namespace {

//! What `databox report` parsed.
struct ReportArgs {
  std::string out;
  ReportViewArgs view;
};

ExitCode Report(const GlobalOptions& global, const ReportArgs& args) {
  const std::string command = "databox report";
  auto session = OpenSession(global, "report");
  if (!session) return ExitCode::kUsage;
  auto records = refresh::RunHistory(session->registry.project.state_dir).ReadAll();
  if (!records) {
    Err(command + ": " + records.error().message + "\n");
    return ExitCode::kRunFailed;
  }
  const report::Report page =
      report::GatherReport(session->registry, ReportTables(session->workspace->catalog()),
                           std::move(*records), args.view.ToOptions());
  if (auto written = fileio::WriteFileDurably(args.out, report::RenderReportHtml(page)); !written) {
    Err(command + ": cannot write the page: " + written.error().message +
        " (check that the folder of --out exists and is writable)\n");
    return ExitCode::kRunFailed;
  }
  bool complete = true;
  for (const std::string* problem : {&page.tables_problem, &page.models_problem}) {
    if (problem->empty()) continue;
    Err(command + ": " + *problem + "; the page says so in its place\n");
    complete = false;
  }
  Out("wrote " + args.out + "\n");
  return complete ? ExitCode::kOk : ExitCode::kRunFailed;
}

}  // namespace

Command ReportCommand() {
  return Command{
      "report", "Write the status page: freshness, recent runs, tables, lineage (one HTML file)",
      "Writes one self-contained HTML file (docs/report.md): every source of the registry with\n"
      "its last successful load, age and freshness (a routine source is stale when that load\n"
      "is older than --stale-after hours; explicit-only sources are on demand; disabled\n"
      "resources are marked); the newest runs of the run history with each source's status,\n"
      "phase, rows, duration and error, and the transform's status and log tail; each table's\n"
      "rows, snapshots and size from the catalog's metadata; and the lineage from sources to\n"
      "raw tables to the transform models that name them, drawn inline. Style, script and\n"
      "drawing are inside the file, which fetches nothing. Text is escaped and secrets the\n"
      "registry resolves are masked. Exit 1 when the run history cannot be read or the file\n"
      "cannot be written, and also (after writing the page) when the tables or the models\n"
      "could not be read; exit 2 when the registry or the workspace cannot be opened.",
      [](CLI::App& app) -> Runner {
        auto args = std::make_shared<ReportArgs>();
        app.add_option("--out", args->out, "the HTML file to write (replaced if it exists)")
            ->option_text("FILE")
            ->required();
        AddReportViewOptions(app, args->view);
        return [args](const GlobalOptions& global) { return Report(global, *args); };
      }};
}

}  // namespace databox::cli
