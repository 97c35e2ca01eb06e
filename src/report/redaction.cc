#include "report/redaction.h"

#include "common/redact.h"

namespace databox::report {
namespace {

void Register(const registry::Secret& secret) {
  if (!secret.Reveal().empty()) RegisterSecret(secret.Reveal());
}

void RegisterRegistrySecrets(const registry::Registry& registry) {
  const auto& project = registry.project;
  Register(project.catalog.credential);
  Register(project.catalog.backup.database_password);
  Register(project.warehouse.s3.access_key_id);
  Register(project.warehouse.s3.secret_access_key);
  Register(project.warehouse.s3.session_token);
  for (const auto& source : registry.sources) Register(source.auth.secret);
}

void RedactInPlace(std::string& text) { text = Redact(text); }

void RedactRun(refresh::RunRecord& run) {
  for (auto& problem : run.inspection_problems) RedactInPlace(problem);
  RedactInPlace(run.transform_log_tail);
  for (auto& source : run.sources) {
    RedactInPlace(source.error);
    for (auto& note : source.notes) RedactInPlace(note);
  }
}

}  // namespace

void RedactReport(const registry::Registry& registry, Report& report) {
  RegisterRegistrySecrets(registry);
  for (auto& run : report.runs) RedactRun(run);
  for (auto& source : report.sources) RedactInPlace(source.last_failure_error);
  RedactInPlace(report.tables_problem);
  RedactInPlace(report.models_problem);
}

}  // namespace databox::report
