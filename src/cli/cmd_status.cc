// `databox status`: every source's last load and last failure and the last transform, read
// from the run history; what it prints is source_status.h.
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/output.h"
#include "cli/session.h"
#include "cli/source_status.h"
#include "common/exit_code.h"
#include "refresh/run_history.h"

namespace databox::cli {
namespace {

ExitCode Status(const GlobalOptions& global, bool json_output) {
  auto session = OpenSession(global, "status");
  if (!session) return ExitCode::kUsage;
  auto records = refresh::RunHistory(session->registry.project.state_dir).ReadAll();
  if (!records) {
    Err("databox status: " + records.error().message + "\n");
    return ExitCode::kUsage;
  }
  std::vector<std::string> sources;
  for (const auto& source : session->registry.sources) sources.push_back(source.name);
  const int64_t now = std::chrono::duration_cast<std::chrono::milliseconds>(
                          std::chrono::system_clock::now().time_since_epoch())
                          .count();
  Out(json_output ? StatusJson(sources, *records, now).dump(2) + "\n"
                  : FormatStatus(sources, *records, now));
  return ExitCode::kOk;
}

}  // namespace

Command StatusCommand() {
  return Command{
      "status", "Show each source's last load and failure, and the last transform",
      "Reads the run history (<state_dir>/runs.jsonl, docs/run_history.md): for each source\n"
      "its last successful load (load id, rows, time and age) and last failure, and how the\n"
      "transform of the newest `databox refresh` or `databox transform` ended (ok, failed,\n"
      "skipped, interrupted or not_run, with SQLMesh's exit code), with the newest transform\n"
      "that ran when that one did not.",
      [](CLI::App& app) -> Runner {
        auto json = std::make_shared<bool>(false);
        app.add_flag("--json", *json, "machine-readable output");
        return [json](const GlobalOptions& global) { return Status(global, *json); };
      }};
}

}  // namespace databox::cli
