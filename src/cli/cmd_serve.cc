// `databox serve --port N`: the status page of `databox report` (made again for every request)
// at / and the run history as JSON at /runs.json, on 127.0.0.1 only, until SIGINT or SIGTERM;
// with --every or --at it also runs `databox refresh` on that schedule (serve/refresh_scheduler.h)
// and answers the schedule at /schedule.json. The command wires its options, the session and the
// schedule to serve/: the server (page_server.h) and what it answers (status_site.h).
#include <csignal>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cli/catalog_tables.h"
#include "cli/commands.h"
#include "cli/output.h"
#include "cli/report_options.h"
#include "cli/run_list.h"
#include "cli/session.h"
#include "common/exit_code.h"
#include "refresh/run_history.h"
#include "report/report_gather.h"
#include "serve/page_server.h"
#include "serve/refresh_scheduler.h"
#include "serve/serve_schedule.h"
#include "serve/status_site.h"

namespace databox::cli {
namespace {

volatile std::sig_atomic_t g_stop_signal = 0;

extern "C" void StopServing(int signal_number) { g_stop_signal = signal_number; }

//! What `databox serve` parsed.
struct ServeArgs {
  int port = 0;
  ReportViewArgs view;
  std::string every;            //!< --every DURATION; "" none
  std::vector<std::string> at;  //!< --at HH:MM[,HH:MM...], each time given
};

//! The scheduled refresh's command line: this binary, the same registry, `refresh`.
std::vector<std::string> RefreshArgv(const GlobalOptions& global) {
  std::error_code error;
  std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error) self = "/proc/self/exe";
  return {self.string(), "--config", std::filesystem::absolute(global.config_path).string(),
          "refresh"};
}

ExitCode Serve(const GlobalOptions& global, const ServeArgs& args) {
  auto schedule = serve::ParseServeSchedule(args.every, args.at);
  if (!schedule) {
    Err("databox serve: " + schedule.error().message + "\n");
    return ExitCode::kUsage;
  }
  auto session = OpenSession(global, "serve");
  if (!session) return ExitCode::kUsage;
  auto server = serve::PageServer::Listen(args.port);
  if (!server) {
    Err("databox serve: " + server.error().message + "\n");
    return ExitCode::kUsage;
  }
  std::signal(SIGINT, StopServing);
  std::signal(SIGTERM, StopServing);
  const std::string base = "http://127.0.0.1:" + std::to_string(server->port());
  Out("serving the status page at " + base + "/ and the run history at " + base +
      "/runs.json (Ctrl-C stops)\n");
  std::optional<serve::RefreshScheduler> scheduler;
  if (!schedule->empty()) {
    const std::filesystem::path state_dir = session->registry.project.state_dir;
    std::error_code ignored;  // a missing folder shows up as the log's open error
    std::filesystem::create_directories(state_dir, ignored);
    scheduler.emplace(*schedule, RefreshArgv(global), state_dir / "serve.log", g_stop_signal,
                      [](std::string_view line) { Out(line); });
    scheduler->Start();
  }
  const report::ReportOptions options = args.view.ToOptions();
  const serve::StatusSite site{.state_dir = session->registry.project.state_dir,
                               .options = options,
                               .gather =
                                   [&](std::vector<refresh::RunRecord> records) {
                                     return report::GatherReport(
                                         session->registry,
                                         ReportTables(session->workspace->catalog()),
                                         std::move(records), options);
                                   },
                               .run_json = RunTraceJson,
                               .scheduler = scheduler ? &*scheduler : nullptr};
  server->Serve([&](std::string_view path) { return serve::Answer(site, path); }, g_stop_signal);
  if (scheduler) scheduler->Join();  // a running refresh is stopped and waited for
  return ExitCodeOfSignal(g_stop_signal).value_or(ExitCode::kOk);
}

}  // namespace

Command ServeCommand() {
  return Command{
      "serve", "Serve the status page and the run history (JSON) on 127.0.0.1",
      "Listens on 127.0.0.1:PORT only, never another address, and answers GET and HEAD:\n"
      "/ is the page `databox report` writes (docs/report.md), made again for every\n"
      "request; /runs.json is the newest runs of the run history as `databox runs show\n"
      "--json` prints each one (an array, newest first), redacted; /schedule.json is the\n"
      "refresh schedule. Prints the address, then serves until SIGINT (exit 130) or SIGTERM\n"
      "(exit 143). Exit 2 when the registry or the workspace cannot be opened, the port\n"
      "cannot be listened on, or --every/--at are not valid.\n"
      "\n"
      "With --every DURATION (counted from the start; 30m, 6h, 1d; at least 1s) or --at HH:MM\n"
      "(daily, local time; repeat it or separate times with commas), the server also runs\n"
      "`databox --config REGISTRY refresh` as a child process at those times, one at a time:\n"
      "a time that comes while the previous one still runs is skipped. Starts, ends (exit code,\n"
      "duration) and skips are printed and appended, with the refresh's output, to serve.log\n"
      "in the state folder. SIGINT/SIGTERM stop a running refresh (SIGTERM to it) first.",
      [](CLI::App& app) -> Runner {
        auto args = std::make_shared<ServeArgs>();
        app.add_option("--port", args->port, "the port on 127.0.0.1 (0: any free port)")
            ->option_text("N")
            ->required()
            ->check(CLI::Range(0, 65535));
        AddReportViewOptions(app, args->view);
        app.add_option("--every", args->every,
                       "also run `databox refresh` every DURATION (30m, 6h, 1d; at least 1s)")
            ->option_text("DURATION");
        app.add_option("--at", args->at,
                       "also run `databox refresh` daily at HH:MM local time (repeatable, or "
                       "comma-separated); excludes --every")
            ->option_text("HH:MM")
            ->allow_extra_args(false);
        return [args](const GlobalOptions& global) { return Serve(global, *args); };
      }};
}

}  // namespace databox::cli
