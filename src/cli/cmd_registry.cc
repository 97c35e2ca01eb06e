// `databox validate` and `databox sources`: the commands that only read the registry.
#include <memory>
#include <string>

#include "cli/commands.h"
#include "cli/output.h"
#include "common/exit_code.h"
#include "registry/format.h"
#include "registry/registry.h"

namespace databox::cli {
namespace {

ExitCode Validate(const GlobalOptions& global) {
  const registry::ValidationReport report = registry::Validate(global.config_path);
  if (!report.ok()) {
    Err(report.ToString());
    Err("databox validate: " + std::to_string(report.problems.size()) + " problem(s) in " +
        global.config_path + "\n");
    return ExitCode::kUsage;
  }
  Out(global.config_path + ": valid\n");
  return ExitCode::kOk;
}

ExitCode ListSources(const GlobalOptions& global, bool json) {
  auto loaded = registry::LoadRegistry(global.config_path);
  if (!loaded) {
    Err("databox sources: " + loaded.error().message + "\n");
    return ExitCode::kUsage;
  }
  if (json) {
    Out(registry::SourcesToJson(*loaded).dump(2) + "\n");
  } else {
    Out(registry::FormatSourcesTable(*loaded));
  }
  return ExitCode::kOk;
}

}  // namespace

Command ValidateCommand() {
  return Command{"validate", "Check the registry and report every problem",
                 "Parses the registry, applies defaults, resolves ${ENV} secret references (from\n"
                 "the environment or a .env file beside the registry) and reports every problem\n"
                 "as file:line: problem (hint). Exit 0 when valid, 2 otherwise.",
                 [](CLI::App&) -> Runner { return Validate; }};
}

Command SourcesCommand() {
  return Command{"sources", "List sources, eligibility, namespaces and tables", "",
                 [](CLI::App& app) -> Runner {
                   auto json = std::make_shared<bool>(false);
                   app.add_flag("--json", *json, "machine-readable output");
                   return
                       [json](const GlobalOptions& global) { return ListSources(global, *json); };
                 }};
}

}  // namespace databox::cli
