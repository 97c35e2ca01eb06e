#include "cli/report_gather.h"

#include "cli/catalog_tables.h"
#include "cli/run_list.h"
#include "common/clock.h"
#include "report/freshness.h"
#include "report/lineage.h"
#include "report/model_health.h"
#include "report/redaction.h"

namespace databox::cli {
namespace {

//! Every table's counts, or the problem that kept them from being read.
void AddTables(iceberg::Catalog& catalog, report::Report& report) {
  auto all = AllTables(catalog);
  auto summaries = all ? SummarizeTables(catalog, *all)
                       : Result<std::vector<TableSummary>>(std::unexpected(all.error()));
  if (!summaries) {
    report.tables_problem = "cannot read the tables of catalog " + std::string(catalog.Name()) +
                            ": " + summaries.error().message;
    return;
  }
  for (const auto& summary : *summaries) {
    report.tables.push_back(
        {summary.table, summary.records, summary.snapshots, summary.bytes, summary.snapshot_time, ""});
  }
}

void AddModels(const registry::Registry& registry, report::Report& report) {
  auto models = report::ScanModels(registry.project.transform.project_dir,
                                   registry.project.analytics.catalog_alias);
  if (!models) {
    report.models_problem = models.error().message;
    return;
  }
  report.models = std::move(*models);
}

}  // namespace

report::Report GatherReport(const registry::Registry& registry, iceberg::Catalog& catalog,
                            std::vector<refresh::RunRecord> records, const ReportOptions& options) {
  report::Report report;
  report.project = registry.project.name;
  report.generated_at = NowIso();
  report.generated_millis = IsoToMillis(report.generated_at).value_or(0);
  report.stale_after_seconds = options.stale_after_seconds;
  report.sources =
      report::SourceStates(registry, records, report.generated_millis, options.stale_after_seconds);
  AddTables(catalog, report);
  const auto loaded = report::TableLoadTimes(records);
  for (auto& table : report.tables) {
    if (auto it = loaded.find(table.table); it != loaded.end()) table.loaded_at = it->second;
  }
  AddModels(registry, report);
  report.model_health = report::ModelHealthOf(report.models, records);
  report.runs = NewestRuns(std::move(records), options.runs);
  report::RedactReport(report);  // the registry's secrets were registered when it loaded
  return report;
}

}  // namespace databox::cli
