// `databox validate` and `databox sources`: the commands that only read the registry.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "cli/catalog_tables.h"
#include "cli/commands.h"
#include "cli/output.h"
#include "common/exit_code.h"
#include "iceberg/table_identifier.h"
#include "platform/workspace.h"
#include "registry/format.h"
#include "registry/registry.h"
#include "registry/validation_notes.h"

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
  if (auto registry = registry::LoadRegistry(global.config_path)) {
    for (const std::string& note : registry::ValidationNotes(*registry))
      Out("note: " + note + "\n");
  }
  return ExitCode::kOk;
}

//! The catalog's tables in each source's namespace that the registry does not declare; empty
//! (with a note on stderr) when the catalog cannot be read, since the registry alone still
//! answers the command.
registry::UndeclaredTables FindUndeclaredTables(const registry::Registry& registry) {
  registry::UndeclaredTables undeclared;
  auto workspace = platform::OpenWorkspace(registry);
  auto all =
      workspace ? AllTables((*workspace)->catalog())
                : Result<std::vector<iceberg::TableIdentifier>>(std::unexpected(workspace.error()));
  if (!all) {
    Err("databox sources: tables not declared in the registry are not shown: " +
        all.error().message + "\n");
    return undeclared;
  }
  for (const registry::Source& source : registry.sources) {
    const std::vector<std::string> declared = source.Tables();
    for (const iceberg::TableIdentifier& table : *all) {
      if (iceberg::NamespaceToString(table.ns) != source.Namespace()) continue;
      if (table.name.starts_with("_dlt_") ||
          std::ranges::find(declared, table.name) != declared.end())
        continue;
      undeclared[source.name].push_back(table.name);
    }
  }
  return undeclared;
}

ExitCode ListSources(const GlobalOptions& global, bool json) {
  auto loaded = registry::LoadRegistry(global.config_path);
  if (!loaded) {
    Err("databox sources: " + loaded.error().message + "\n");
    return ExitCode::kUsage;
  }
  const registry::UndeclaredTables undeclared = FindUndeclaredTables(*loaded);
  if (json) {
    Out(registry::SourcesToJson(*loaded, undeclared).dump(2) + "\n");
  } else {
    Out(registry::FormatSourcesTable(*loaded, undeclared));
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
  return Command{"sources", "List sources, eligibility, namespaces and tables",
                 "Reads the registry; a disabled resource's tables are marked (disabled). When\n"
                 "the catalog can be read, tables it holds in a source's namespace that the\n"
                 "registry does not declare (child tables of nested lists) are listed, marked\n"
                 "(undeclared).",
                 [](CLI::App& app) -> Runner {
                   auto json = std::make_shared<bool>(false);
                   app.add_flag("--json", *json, "machine-readable output");
                   return
                       [json](const GlobalOptions& global) { return ListSources(global, *json); };
                 }};
}

}  // namespace databox::cli
