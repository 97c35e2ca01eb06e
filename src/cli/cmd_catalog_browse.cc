#include "cli/cmd_catalog_browse.h"

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "cli/catalog_tables.h"
#include "cli/output.h"
#include "cli/session.h"
#include "cli/table_summary.h"
#include "iceberg/commit/catalog.h"
#include "iceberg/spec/table_identifier.h"

namespace databox::cli {
namespace {

//! What `databox catalog list|describe` parsed.
struct BrowseArgs {
  CLI::App* list = nullptr;
  CLI::App* describe = nullptr;
  std::string table;
  bool json = false;
};

ExitCode Browse(const GlobalOptions& global, const BrowseArgs& args) {
  const std::string command =
      std::string("databox catalog ") + (args.describe->parsed() ? "describe" : "list");
  auto session = OpenSession(global, args.describe->parsed() ? "catalog describe" : "catalog list");
  if (!session) return ExitCode::kUsage;
  iceberg::Catalog& catalog = session->workspace->catalog();
  auto all = AllTables(catalog);
  if (!all) {
    Err(command + ": " + all.error().message + "\n");
    return ExitCode::kRunFailed;
  }
  if (args.list->parsed()) {
    auto summaries = SummarizeTables(catalog, *all);
    if (!summaries) {
      Err(command + ": " + summaries.error().message + "\n");
      return ExitCode::kRunFailed;
    }
    Out(args.json ? TableListJson(*summaries).dump(2) + "\n" : FormatTableList(*summaries));
    return ExitCode::kOk;
  }
  auto ident = iceberg::ParseTableIdentifier(args.table);
  const bool known = ident && std::find(all->begin(), all->end(), *ident) != all->end();
  if (!known) {
    Err(command + ": no table " + args.table + " in catalog " + std::string(catalog.Name()) +
        TableSuggestion(args.table, *all) + "\n");
    return ExitCode::kRunFailed;
  }
  auto loaded = catalog.LoadTable(*ident);
  if (!loaded) {
    Err(command + ": table " + args.table + ": " + loaded.error().message + "\n");
    return ExitCode::kRunFailed;
  }
  const TableSummary summary = SummarizeTable(*ident, loaded->metadata);
  Out(args.json
          ? TableDescriptionJson(summary, loaded->metadata, loaded->metadata_location).dump(2) +
                "\n"
          : FormatTableDescription(summary, loaded->metadata, loaded->metadata_location));
  return ExitCode::kOk;
}

}  // namespace

CatalogBrowseRunner DeclareCatalogBrowse(CLI::App& catalog) {
  auto args = std::make_shared<BrowseArgs>();
  args->list = catalog.add_subcommand(
      "list", "List every table: rows, files, bytes, current snapshot, last load id");
  args->list->footer(
      "Reads each table's metadata from the catalog; the counts are the current snapshot's\n"
      "summary (rows in data files, before position deletes), so no data file is read.\n"
      "Exit 1 when the catalog cannot be read.");
  args->list->add_flag("--json", args->json, "machine-readable output");
  args->describe = catalog.add_subcommand(
      "describe", "Show one table: snapshot, counts, format, location, spec, properties, schema");
  args->describe->footer(
      "TABLE is NAMESPACE.TABLE as `databox catalog list` prints it. A name that is not a\n"
      "table gets the close ones suggested (a namespace's tables, for a namespace). Counts\n"
      "are the current snapshot's summary; `databox inspect` reads the files and counts\n"
      "live rows. Exit 1 when the table does not exist or the catalog cannot be read.");
  args->describe->add_option("TABLE", args->table, "the table, e.g. raw_usgs.sites")->required();
  args->describe->add_flag("--json", args->json, "machine-readable output");
  return [args](const GlobalOptions& global) -> std::optional<ExitCode> {
    if (!args->list->parsed() && !args->describe->parsed()) return std::nullopt;
    return Browse(global, *args);
  };
}

}  // namespace databox::cli
