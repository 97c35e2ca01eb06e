// `databox validate` and `databox sources`: the commands that only read the registry.
#include <algorithm>
#include <filesystem>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "cli/catalog_tables.h"
#include "cli/commands.h"
#include "cli/output.h"
#include "common/edit_distance.h"
#include "common/exit_code.h"
#include "iceberg/spec/table_identifier.h"
#include "platform/workspace.h"
#include "registry/format.h"
#include "registry/registry.h"
#include "registry/validation_notes.h"
#include "report/lineage.h"

namespace databox::cli {
namespace {

//! One problem per raw table a transform model reads (report/lineage.h: the tables its SQL
//! names through the catalog alias) that no source of `registry` declares, as
//! "MODEL_FILE: model M reads raw_x.y, which no source of the registry loads (hint: ...)". A
//! source's `_dlt_*` tables count as declared. Empty when the SQLMesh project has no models
//! folder (there is nothing to check).
std::vector<std::string> UnloadedTablesModelsRead(const registry::Registry& registry) {
  const std::filesystem::path& project_dir = registry.project.transform.project_dir;
  std::error_code ec;
  if (!std::filesystem::is_directory(project_dir / "models", ec)) return {};
  auto models = report::ScanModels(project_dir, registry.project.analytics.catalog_alias);
  if (!models) return {models.error().message};
  std::vector<std::string> declared;
  std::set<std::string> namespaces;
  for (const registry::Source& source : registry.sources) {
    namespaces.insert(source.Namespace());
    for (const std::string& table : source.Tables()) {
      declared.push_back(source.Namespace() + "." + table);
    }
  }
  std::vector<std::string> problems;
  for (const report::ModelReads& model : *models) {
    for (const std::string& read : model.reads) {
      if (std::ranges::find(declared, read) != declared.end()) continue;
      const std::size_t dot = read.find('.');
      if (dot != std::string::npos && read.compare(dot + 1, 5, "_dlt_") == 0 &&
          namespaces.contains(read.substr(0, dot))) {
        continue;
      }
      const std::optional<std::string> meant = LikelyMeant(read, declared);
      problems.push_back((project_dir / model.file).string() + ": model " + model.model +
                         " reads " + read + ", which no source of the registry loads (hint: " +
                         (meant ? "did you mean " + *meant + "?"
                                : "declare the source or resource that loads it, or fix the "
                                  "model") +
                         ")");
    }
  }
  return problems;
}

ExitCode Validate(const GlobalOptions& global) {
  const registry::ValidationReport report = registry::Validate(global.config_path);
  if (!report.ok()) {
    Err(report.ToString());
    Err("databox validate: " + std::to_string(report.problems.size()) + " problem(s) in " +
        global.config_path + "\n");
    return ExitCode::kUsage;
  }
  auto registry = registry::LoadRegistry(global.config_path);
  if (registry) {
    const std::vector<std::string> problems = UnloadedTablesModelsRead(*registry);
    if (!problems.empty()) {
      for (const std::string& problem : problems) Err(problem + "\n");
      Err("databox validate: " + std::to_string(problems.size()) +
          " problem(s) in the transform models of " + global.config_path + "\n");
      return ExitCode::kUsage;
    }
  }
  Out(global.config_path + ": valid\n");
  if (registry) {
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
                 "as file:line: problem (hint). Then reads the transform's models (the SQL files\n"
                 "under [project.transform] project_dir/models) and reports each raw table a\n"
                 "model names that no source loads, with the model's file. Exit 0 when valid, 2\n"
                 "otherwise.",
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
