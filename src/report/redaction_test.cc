// The page's texts lose every registered secret, even one a run record kept.
#include "report/redaction.h"

#include <gtest/gtest.h>

#include "common/redact.h"

namespace databox::report {
namespace {

TEST(RedactionTest, RegisteredSecretsAreMaskedInEveryText) {
  // What LoadRegistry does with the secrets it resolves.
  RegisterSecret("tok-report-0123456789");
  RegisterSecret("client:report-secret-xyz");

  Report report;
  refresh::RunRecord run;
  refresh::SourceRun failed;
  failed.error = "GET /obs?key=tok-report-0123456789 failed";
  failed.notes = {"note tok-report-0123456789"};
  run.sources.push_back(failed);
  run.transform_log_tail = "auth client:report-secret-xyz refused";
  run.inspection_problems = {"tok-report-0123456789"};
  report.runs.push_back(run);
  SourceState state;
  state.last_failure_error = "header tok-report-0123456789";
  report.sources.push_back(state);
  report.tables_problem = "catalog said client:report-secret-xyz";

  RedactReport(report);
  const auto& r = report.runs[0];
  for (const std::string* text : std::initializer_list<const std::string*>{
           &r.sources[0].error, &r.sources[0].notes[0], &r.transform_log_tail,
           &r.inspection_problems[0], &report.sources[0].last_failure_error,
           &report.tables_problem}) {
    EXPECT_EQ(text->find("tok-report"), std::string::npos) << *text;
    EXPECT_EQ(text->find("report-secret"), std::string::npos) << *text;
    EXPECT_NE(text->find("***"), std::string::npos) << *text;
  }
}

}  // namespace
}  // namespace databox::report
