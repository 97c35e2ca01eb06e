// `databox serve --port N`: the status page of `databox report` (made again for every request)
// at / and the run history as JSON at /runs.json, on 127.0.0.1 only, until SIGINT or SIGTERM.
#include <csignal>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "cli/commands.h"
#include "cli/output.h"
#include "cli/page_server.h"
#include "cli/report_gather.h"
#include "cli/report_options.h"
#include "cli/run_list.h"
#include "cli/session.h"
#include "common/exit_code.h"
#include "common/redact.h"
#include "refresh/run_history.h"
#include "report/html_page.h"
#include "report/redaction.h"

namespace databox::cli {
namespace {

volatile std::sig_atomic_t g_stop_signal = 0;

extern "C" void StopServing(int signal_number) { g_stop_signal = signal_number; }

//! What `databox serve` parsed.
struct ServeArgs {
  int port = 0;
  ReportViewArgs view;
};

PageReply Problem(const std::string& message) {
  return {500, "text/plain; charset=utf-8", Redact(message) + "\n"};
}

PageReply Page(Session& session, const ReportOptions& options) {
  auto records = refresh::RunHistory(session.registry.project.state_dir).ReadAll();
  if (!records) return Problem(records.error().message);
  return {200, "text/html; charset=utf-8",
          report::RenderReportHtml(GatherReport(session.registry, session.workspace->catalog(),
                                                std::move(*records), options))};
}

PageReply RunsJson(const Session& session, const ReportOptions& options) {
  auto records = refresh::RunHistory(session.registry.project.state_dir).ReadAll();
  if (!records) return Problem(records.error().message);
  report::Report runs_only;
  runs_only.runs = NewestRuns(std::move(*records), options.runs);
  report::RedactReport(runs_only);
  nlohmann::ordered_json json = nlohmann::ordered_json::array();
  for (const auto& run : runs_only.runs) json.push_back(RunTraceJson(run));
  return {200, "application/json", json.dump(2) + "\n"};
}

ExitCode Serve(const GlobalOptions& global, const ServeArgs& args) {
  auto session = OpenSession(global, "serve");
  if (!session) return ExitCode::kUsage;
  auto server = PageServer::Listen(args.port);
  if (!server) {
    Err("databox serve: " + server.error().message + "\n");
    return ExitCode::kUsage;
  }
  std::signal(SIGINT, StopServing);
  std::signal(SIGTERM, StopServing);
  const std::string base = "http://127.0.0.1:" + std::to_string(server->port());
  Out("serving the status page at " + base + "/ and the run history at " + base +
      "/runs.json (Ctrl-C stops)\n");
  const ReportOptions options = args.view.ToOptions();
  server->Serve(
      [&](std::string_view path) -> PageReply {
        if (path == "/" || path == "/index.html") return Page(*session, options);
        if (path == "/runs.json") return RunsJson(*session, options);
        return {404, "text/plain; charset=utf-8", "not found: try / or /runs.json\n"};
      },
      g_stop_signal);
  return ExitCodeOfSignal(g_stop_signal).value_or(ExitCode::kOk);
}

}  // namespace

Command ServeCommand() {
  return Command{
      "serve", "Serve the status page and the run history (JSON) on 127.0.0.1",
      "Listens on 127.0.0.1:PORT only, never another address, and answers GET and HEAD:\n"
      "/ is the page `databox report` writes (docs/report.md), made again for every\n"
      "request; /runs.json is the newest runs of the run history as `databox runs show\n"
      "--json` prints each one (an array, newest first), redacted. Prints the address, then\n"
      "serves until SIGINT (exit 130) or SIGTERM (exit 143). Exit 2 when the registry or the\n"
      "workspace cannot be opened or the port cannot be listened on.",
      [](CLI::App& app) -> Runner {
        auto args = std::make_shared<ServeArgs>();
        app.add_option("--port", args->port, "the port on 127.0.0.1 (0: any free port)")
            ->option_text("N")
            ->required()
            ->check(CLI::Range(0, 65535));
        AddReportViewOptions(app, args->view);
        return [args](const GlobalOptions& global) { return Serve(global, *args); };
      }};
}

}  // namespace databox::cli
