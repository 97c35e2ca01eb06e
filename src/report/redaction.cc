#include "report/redaction.h"

#include "common/redact.h"

namespace databox::report {
namespace {

void RedactInPlace(std::string& text) { text = Redact(text); }

void RedactRun(refresh::RunRecord& run) {
  for (auto& problem : run.inspection_problems) RedactInPlace(problem);
  RedactInPlace(run.transform_log_tail);
  for (auto& source : run.sources) {
    RedactInPlace(source.error);
    for (auto& note : source.notes) RedactInPlace(note);
  }
  for (auto& model : run.transform_models) RedactInPlace(model.error);
}

}  // namespace

void RedactReport(Report& report) {
  for (auto& run : report.runs) RedactRun(run);
  for (auto& source : report.sources) RedactInPlace(source.last_failure_error);
  RedactInPlace(report.tables_problem);
  RedactInPlace(report.models_problem);
  for (auto& model : report.model_health) RedactInPlace(model.error);
}

}  // namespace databox::report
