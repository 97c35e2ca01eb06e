// `databox validate` and `databox sources`: the commands that only read the registry.
#include <string>

#include "cli/commands.h"
#include "cli/output.h"
#include "common/exit_code.h"
#include "registry/format.h"
#include "registry/registry.h"

namespace databox::cli {

Command ValidateCommand() {
  return Command{
      CommandSpec{"validate",
                  "Check the registry and report every problem",
                  "databox validate",
                  "Parses the registry, applies defaults, resolves ${ENV} secret references (from\n"
                  "the environment or a .env file beside the registry) and reports every problem\n"
                  "as file:line: problem (hint). Exit 0 when valid, 2 otherwise.",
                  {},
                  0,
                  0},
      [](const GlobalOptions& global, const ParsedArgs&) {
        const registry::ValidationReport report = registry::Validate(global.config_path);
        if (!report.ok()) {
          Err(report.ToString());
          Err("databox validate: " + std::to_string(report.problems.size()) + " problem(s) in " +
              global.config_path + "\n");
          return ExitCode::kUsage;
        }
        Out(global.config_path + ": valid\n");
        return ExitCode::kOk;
      },
      ""};
}

Command SourcesCommand() {
  return Command{CommandSpec{"sources",
                             "List sources, eligibility, namespaces and tables",
                             "databox sources [--json]",
                             "",
                             {{"json", "", "machine-readable output"}},
                             0,
                             0},
                 [](const GlobalOptions& global, const ParsedArgs& args) {
                   auto loaded = registry::LoadRegistry(global.config_path);
                   if (!loaded) {
                     Err("databox sources: " + loaded.error().message + "\n");
                     return ExitCode::kUsage;
                   }
                   if (args.Has("json")) {
                     Out(registry::SourcesToJson(*loaded).dump(2) + "\n");
                   } else {
                     Out(registry::FormatSourcesTable(*loaded));
                   }
                   return ExitCode::kOk;
                 },
                 ""};
}

}  // namespace databox::cli
