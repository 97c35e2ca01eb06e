// `databox transform`: the transform alone over the raw tables as they are, and its preview
// (`--plan`).
#include <memory>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/output.h"
#include "cli/session.h"
#include "cli/transform_plan_output.h"
#include "common/clock.h"
#include "common/exit_code.h"
#include "common/interrupt.h"
#include "refresh/preflight.h"
#include "refresh/run_status.h"
#include "refresh/transform_plan.h"
#include "refresh/transform_run.h"

namespace databox::cli {
namespace {

constexpr refresh::PreflightOptions kPreflight{.command = refresh::PreflightFor::kTransform};

struct TransformArgs {
  bool plan = false;
  bool json = false;
};

ExitCode Plan(load::Workspace& workspace, bool json) {
  const refresh::TransformPlan plan = refresh::PlanTransform(workspace);
  if (json) {
    Out(TransformPlanJson(plan).dump(2) + "\n");
  } else {
    Out(FormatTransformPlan(plan));
  }
  if (plan.models.interrupted) {
    return ExitCodeOfSignal(InterruptSignal()).value_or(ExitCode::kInterrupted);
  }
  return plan.ok() ? ExitCode::kOk : ExitCode::kRunFailed;
}

ExitCode Run(load::Workspace& workspace, bool json) {
  // As for a refresh: a transform that cannot start is refused, and no run is recorded (what
  // needs no workspace was checked before it was opened, in Transform).
  if (!PreflightPassed("transform", refresh::RunWorkspacePreflight(workspace, kPreflight))) {
    return ExitCode::kUsage;
  }
  const refresh::TransformRunOutcome outcome = refresh::RunTransformAlone(workspace);
  const refresh::RunRecord& record = outcome.record;
  if (!outcome.history_problem.empty()) Err("databox transform: " + outcome.history_problem + "\n");
  if (!outcome.raw_columns_problem.empty()) {
    Err("databox transform: " + outcome.raw_columns_problem +
        " (`databox transform --plan` compares with the previous columns)\n");
  }
  if (json) {
    Out(record.ToJson().dump(2) + "\n");
  } else {
    const int64_t millis =
        static_cast<int64_t>(record.transform_seconds.value_or(0) * 1000);  // seconds -> ms
    Out("run " + record.run_id +
        "\n  transform: " + std::string(refresh::TransformStatusName(record.transform_status)) +
        (record.transform_exit_code ? " (exit " + std::to_string(*record.transform_exit_code) + ")"
                                    : "") +
        " in " + FormatDuration(millis) + "\n");
  }
  if (record.transform_status == refresh::TransformStatus::kInterrupted) {
    Err("databox transform: interrupted by " + SignalName(InterruptSignal()) +
        "; the transform was stopped\n");
  }
  if (record.transform_status != refresh::TransformStatus::kOk &&
      !record.transform_log_tail.empty()) {
    Err("transform log (tail):\n" + record.transform_log_tail + "\n");
  }
  return outcome.exit_code;
}

ExitCode Transform(const GlobalOptions& global, const TransformArgs& args) {
  // A transform that cannot start for want of its command creates nothing (no state folder).
  auto session = OpenSession(
      global, "transform", load::WorkspaceUse::kExclusive, [&](const registry::Registry& registry) {
        return args.plan ||
               PreflightPassed("transform", refresh::RunRegistryPreflight(registry, kPreflight));
      });
  if (!session) return ExitCode::kUsage;
  InstallInterruptHandlers();
  return args.plan ? Plan(*session->workspace, args.json) : Run(*session->workspace, args.json);
}

}  // namespace

Command TransformCommand() {
  return Command{
      "transform", "Run the transform (SQLMesh) on the raw tables as they are, loading nothing",
      "Runs the registry's transform command ([project.transform]; by default SQLMesh plan and\n"
      "restate on prod) over the current raw views, records the run in the run history\n"
      "(command transform; `databox runs` lists it) and prints how it ended and how long it\n"
      "took. Exit 0 when it succeeded, 1 when it failed (the log tail on stderr). Refused\n"
      "(exit 2, nothing started or recorded) while a refresh, a run or another transform\n"
      "works, and at preflight as a refresh is: the transform command not found, its\n"
      "project folder missing, the catalog or analytics database unusable.\n"
      "After a success the raw tables' columns are saved for --plan.\n"
      "--plan applies nothing: it shows the models SQLMesh would change (`sqlmesh diff prod`;\n"
      "only with the default command) and the raw columns that appeared, vanished or changed\n"
      "type since the last successful transform; exit 1 when either could not be computed.\n"
      "Ctrl-C (SIGINT) or SIGTERM stops the running SQLMesh (SIGTERM to its process group,\n"
      "SIGKILL after a grace period), records the run as interrupted and exits 130 or 143.",
      [](CLI::App& app) -> Runner {
        auto args = std::make_shared<TransformArgs>();
        app.add_flag("--plan", args->plan,
                     "preview: models that would change and raw columns changed since the last "
                     "transform; applies nothing");
        app.add_flag("--json", args->json, "print a machine-readable summary instead");
        return [args](const GlobalOptions& global) { return Transform(global, *args); };
      }};
}

}  // namespace databox::cli
