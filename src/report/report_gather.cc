#include "report/report_gather.h"

#include "common/clock.h"
#include "report/freshness.h"
#include "report/lineage.h"
#include "report/model_health.h"
#include "report/redaction.h"

namespace databox::report {
namespace {

void AddModels(const registry::Registry& registry, Report& report) {
  auto models =
      ScanModels(registry.project.transform.project_dir, registry.project.analytics.catalog_alias);
  if (!models) {
    report.models_problem = models.error().message;
    return;
  }
  report.models = std::move(*models);
}

}  // namespace

Report GatherReport(const registry::Registry& registry, Result<std::vector<TableState>> tables,
                    std::vector<refresh::RunRecord> records, const ReportOptions& options) {
  Report report;
  report.project = registry.project.name;
  report.generated_at = NowIso();
  report.generated_millis = IsoToMillis(report.generated_at).value_or(0);
  report.stale_after_seconds = options.stale_after_seconds;
  report.sources =
      SourceStates(registry, records, report.generated_millis, options.stale_after_seconds);
  if (tables) {
    report.tables = std::move(*tables);
  } else {
    report.tables_problem = tables.error().message;
  }
  const auto loaded = TableLoadTimes(records);
  for (auto& table : report.tables) {
    if (auto it = loaded.find(table.table); it != loaded.end()) table.loaded_at = it->second;
  }
  AddModels(registry, report);
  report.model_health = ModelHealthOf(report.models, records);
  report.runs = refresh::NewestRuns(std::move(records), options.runs);
  RedactReport(report);  // the registry's secrets were registered when it loaded
  return report;
}

}  // namespace databox::report
