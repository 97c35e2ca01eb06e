#include "cli/catalog_tables.h"

#include <algorithm>

#include "common/edit_distance.h"

namespace databox::cli {
namespace {

//! The farthest a name may be from a table's name (in edits) to be suggested for it.
constexpr std::size_t kSuggestDistance = 3;

}  // namespace

Result<std::vector<iceberg::TableIdentifier>> AllTables(iceberg::Catalog& catalog) {
  std::vector<iceberg::TableIdentifier> tables;
  std::vector<iceberg::Namespace> pending = {{}};
  while (!pending.empty()) {
    const iceberg::Namespace ns = pending.back();
    pending.pop_back();
    DATABOX_ASSIGN_OR_RETURN(auto children, catalog.ListNamespaces(ns));
    for (auto& child : children) pending.push_back(std::move(child));
    if (ns.empty()) continue;
    DATABOX_ASSIGN_OR_RETURN(auto in_ns, catalog.ListTables(ns));
    tables.insert(tables.end(), in_ns.begin(), in_ns.end());
  }
  std::sort(tables.begin(), tables.end());
  return tables;
}

Result<std::vector<report::TableState>> ReportTables(iceberg::Catalog& catalog) {
  auto all = AllTables(catalog);
  auto summaries = all ? SummarizeTables(catalog, *all)
                       : Result<std::vector<TableSummary>>(std::unexpected(all.error()));
  if (!summaries) {
    return MakeError(summaries.error().kind, "cannot read the tables of catalog " +
                                                 std::string(catalog.Name()) + ": " +
                                                 summaries.error().message);
  }
  std::vector<report::TableState> tables;
  for (const auto& summary : *summaries) {
    tables.push_back({summary.table, summary.records, summary.snapshots, summary.bytes,
                      summary.snapshot_time, ""});
  }
  return tables;
}

std::string TableSuggestion(const std::string& name,
                            const std::vector<iceberg::TableIdentifier>& all) {
  const std::size_t dot = name.rfind('.');
  const std::string table_part = dot == std::string::npos ? "" : name.substr(dot + 1);
  std::string close;
  for (const auto& table : all) {
    const std::string full = table.ToString();
    const bool in_namespace = !table.ns.empty() && table.ns.back() == name;
    if (in_namespace || table.name == table_part || EditDistance(name, full) <= kSuggestDistance) {
      close += (close.empty() ? "" : ", ") + full;
    }
  }
  if (close.empty()) return "; `databox catalog list` lists the tables";
  return " (did you mean " + close + "?)";
}

Result<std::vector<TableSummary>> SummarizeTables(
    iceberg::Catalog& catalog, const std::vector<iceberg::TableIdentifier>& tables) {
  std::vector<TableSummary> summaries;
  for (const auto& table : tables) {
    auto loaded = catalog.LoadTable(table);
    if (!loaded) {
      return MakeError(loaded.error().kind,
                       "table " + table.ToString() + ": " + loaded.error().message);
    }
    summaries.push_back(SummarizeTable(table, loaded->metadata));
  }
  return summaries;
}

}  // namespace databox::cli
