#include "publish/run_record.h"

#include "common/clock.h"
#include "common/redact.h"
#include "load/load_phase.h"

namespace databox::publish {
namespace {

//! The read-back problem naming `relation` ("<name>: ..."), or "".
std::string ProblemOf(const Outcome& outcome, const std::string& relation) {
  for (const std::string& problem : outcome.problems) {
    if (problem.starts_with(relation + ": ")) return problem;
  }
  return "";
}

}  // namespace

refresh::RunRecord PublishRecord(const Outcome& outcome, const std::string& target_root,
                                 const std::string& started_at, ExitCode exit_code) {
  refresh::RunRecord record;
  record.run_id = started_at;
  record.command = "publish";
  record.started_at = started_at;
  record.finished_at = NowIso();
  record.exit_code = exit_code;
  record.inspection_ok = outcome.current && outcome.problems.empty();
  for (const std::string& problem : outcome.problems) {
    record.inspection_problems.push_back(Redact(problem));
  }
  for (const RelationOutcome& relation : outcome.relations) {
    refresh::SourceRun run;
    run.source = relation.name;
    run.started_at = started_at;
    run.rows = relation.rows;
    if (relation.snapshot_id) run.snapshots[relation.name] = *relation.snapshot_id;
    if (outcome.current) {
      run.status = refresh::SourceStatus::kOk;
    } else {
      run.status = refresh::SourceStatus::kFailed;
      const std::string problem = ProblemOf(outcome, relation.name);
      run.phase = problem.empty() ? load::Phase::kLoad : load::Phase::kInspection;
      run.error = Redact(problem.empty() ? "version " + std::to_string(outcome.version) +
                                               " was not published: " + outcome.error
                                         : problem);
    }
    record.sources.push_back(std::move(run));
  }
  if (!record.sources.empty()) {
    std::vector<std::string>& notes = record.sources.front().notes;
    notes.push_back(Redact("version " + std::to_string(outcome.version) + " at " + target_root +
                           (outcome.current ? " (current)" : " (not current)")));
    notes.push_back("copied " + std::to_string(outcome.copied.files_copied) + " files (" +
                    std::to_string(outcome.copied.bytes_copied) + " bytes), " +
                    std::to_string(outcome.copied.files_present) +
                    " already at the target; removed " + std::to_string(outcome.versions_removed) +
                    " old versions and " + std::to_string(outcome.files_removed) + " files");
  }
  return record;
}

}  // namespace databox::publish
