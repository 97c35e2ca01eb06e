// The load protocol of one source: package, extract (source::Source), normalize, then plan and
// commit. What a source kind does lives in source/; deduplication (merge_dedup.h), table
// planning (table_plan.h) and the commit (load_commit.h) in their own files.
#include "load/source_load.h"

#include <memory>

#include "common/failpoint.h"
#include "common/interrupt.h"
#include "common/redact.h"
#include "iceberg/snapshot_producer.h"
#include "load/load_database.h"
#include "load/load_id.h"
#include "load/load_package.h"
#include "load/load_turn.h"
#include "load/merge_dedup.h"
#include "load/normalized_tables.h"
#include "load/plan_and_commit.h"
#include "load/resource_hints.h"
#include "load/system_tables.h"
#include "normalize/normalizer.h"
#include "source/extractor.h"
#include "source/source.h"

namespace databox::load {
namespace {

//! Records between two progress reports of one resource's normalization.
constexpr int64_t kNormalizeProgressEvery = 10000;

//! One source load in progress; owns the package, the staging database and the source runner.
class SourceLoad {
 public:
  SourceLoad(Workspace& workspace, const registry::Source& source, const SourceLoadOptions& options,
             std::unique_ptr<source::Source> runner)
      : ws_(workspace), source_(source), options_(options), runner_(std::move(runner)) {}

  Result<SourceLoadResult> Run();

 private:
  std::string Label(const registry::Resource& r) const { return source::ResourceLabel(source_, r); }
  void Report(LoadPhase phase, const std::string& resource, int64_t records) {
    if (options_.on_progress) {
      options_.on_progress(LoadProgress{source_.name, phase, resource, result_.requests, records});
    }
  }
  source::Package Folders() const {
    return source::Package{result_.load_id, package_->dir(), package_->extract_dir()};
  }
  void AddNotes(source::StepReport& report) {
    for (std::string& note : report.notes) result_.notes.push_back(std::move(note));
  }
  //! Opens the newest resumable package; true when its load turns out to be committed already.
  Result<bool> Resume();
  Status Extract();
  Status NormalizeAndStage();
  Status NormalizeResource(const registry::Resource& resource);
  Status PlanAndCommit();
  //! Whether _dlt_load_status already holds a snapshot of this load id: a resumed package whose
  //! commit landed before the process that made it died (its status row commits last or with
  //! the data, so the whole load is in).
  Result<bool> StatusCommitted();

  Workspace& ws_;
  const registry::Source& source_;
  const SourceLoadOptions& options_;
  std::unique_ptr<source::Source> runner_;  //!< extracts and feeds the records (source.h)
  std::optional<LoadPackage> package_;
  std::unique_ptr<LoadDatabase> db_;  //!< staging, from normalization to the commit
  SourceLoadResult result_;
  int64_t records_fed_ = 0;  //!< records fed to the normalizer so far, over all resources
};

Status SourceLoad::Extract() {
  auto progress = [&](const std::string& name, int64_t requests, int64_t records) {
    result_.requests = requests;
    Report(LoadPhase::kExtract, name, records);
  };
  DATABOX_ASSIGN_OR_RETURN(source::StepReport report, runner_->Extract(Folders(), progress));
  result_.requests = report.requests;
  AddNotes(report);
  return Ok();
}

Status SourceLoad::NormalizeResource(const registry::Resource& resource) {
  DATABOX_ASSIGN_OR_RETURN(auto hints, HintsFor(source_, resource));
  DATABOX_ASSIGN_OR_RETURN(auto normalizer,
                           normalize::Normalizer::Make(std::move(hints), result_.load_id));
  auto stage = [&]() -> Status {
    for (normalize::TableBatch& batch : normalizer->Flush()) {
      DATABOX_RETURN_IF_ERROR(db_->tables().Add(resource, std::move(batch)));
    }
    return Ok();
  };
  int64_t records = 0;
  auto sink = [&](nlohmann::ordered_json record) -> Status {
    if (auto added = normalizer->Add(record); !added) {
      return std::unexpected(
          added.error().WithContext(Label(resource) + ", record " + std::to_string(records + 1)));
    }
    ++records;
    if (records % kNormalizeProgressEvery == 0) {
      Report(LoadPhase::kNormalize, resource.name, records_fed_ + records);
    }
    if (normalizer->BufferedRows() >= options_.flush_rows) return stage();
    return Ok();
  };
  DATABOX_ASSIGN_OR_RETURN(source::StepReport fed, runner_->Feed(resource, Folders(), sink));
  AddNotes(fed);
  DATABOX_RETURN_IF_ERROR(stage());
  records_fed_ += records;
  Report(LoadPhase::kNormalize, resource.name, records_fed_);
  return Ok();
}

Status SourceLoad::NormalizeAndStage() {
  DATABOX_ASSIGN_OR_RETURN(db_, LoadDatabase::Open(ws_));
  for (const registry::Resource* resource : runner_->Resources()) {
    DATABOX_RETURN_IF_ERROR(CheckInterrupted(Label(*resource)));
    DATABOX_RETURN_IF_ERROR(NormalizeResource(*resource));
  }
  return DeduplicateMergeBatches(db_->conn(), source_, runner_->Resources(), db_->tables());
}

Status SourceLoad::PlanAndCommit() {
  DATABOX_ASSIGN_OR_RETURN(
      CommittedLoad committed,
      load::PlanAndCommit(ws_, db_->conn(), source_, db_->tables(), result_.load_id,
                          [&] { Report(LoadPhase::kCommit, "", records_fed_); }));
  result_.tables = std::move(committed.tables);
  result_.rows_loaded = committed.rows_loaded;
  return Ok();
}

Result<bool> SourceLoad::StatusCommitted() {
  auto loaded =
      ws_.catalog().LoadTable(iceberg::TableIdentifier{{RawNamespace(source_)}, kLoadStatusTable});
  if (!loaded) {
    if (loaded.error().kind == ErrorKind::kNotFound) return false;
    return std::unexpected(loaded.error());
  }
  for (const iceberg::Snapshot& snapshot : loaded->metadata.snapshots) {
    auto it = snapshot.summary.find(iceberg::kLoadIdSummaryKey);
    if (it != snapshot.summary.end() && it->second == result_.load_id) return true;
  }
  return false;
}

Result<bool> SourceLoad::Resume() {
  DATABOX_ASSIGN_OR_RETURN(auto package, LoadPackage::FindResumable(ws_.loads_dir(), source_.name));
  package_.emplace(std::move(package));
  result_.load_id = package_->load_id();
  DATABOX_ASSIGN_OR_RETURN(bool committed, StatusCommitted());
  if (!committed) return false;
  // Committing again would add a second status row with this load id.
  DATABOX_RETURN_IF_ERROR(package_->SetState(PackageState::kCommitted));
  result_.notes.push_back("load " + result_.load_id +
                          " was already committed by a run that stopped before recording "
                          "it; nothing to resume");
  return true;
}

Result<SourceLoadResult> SourceLoad::Run() {
  result_.source = source_.name;
  if (options_.resume) {
    DATABOX_ASSIGN_OR_RETURN(bool committed, Resume());
    if (committed) return result_;
  } else {
    result_.load_id = options_.load_id.value_or(NewLoadId());
    DATABOX_ASSIGN_OR_RETURN(auto package,
                             LoadPackage::Create(ws_.loads_dir(), source_.name, result_.load_id));
    package_.emplace(std::move(package));
  }
  auto fail = [&](const Error& error) -> Result<SourceLoadResult> {
    const std::string why =
        IsInterruption(error)
            ? InterruptedError(source_.name, SignalName(InterruptSignal()), package_->extracted())
            : Redact(error.message);
    (void)package_->SetState(PackageState::kFailed, why);
    return std::unexpected(error);
  };
  // SIGINT and SIGTERM are heeded between requests and resources, and up to the commit; a
  // commit that started finishes.
  if (!options_.resume) {
    if (auto extracted = Extract(); !extracted) return fail(extracted.error());
    DATABOX_RETURN_IF_ERROR(package_->SetState(PackageState::kExtracted));
    Failpoint("after-extract");
  }
  if (auto staged = NormalizeAndStage(); !staged) return fail(staged.error());
  if (auto stop = CheckInterrupted("source " + source_.name); !stop) return fail(stop.error());
  if (auto committed = PlanAndCommit(); !committed) return fail(committed.error());
  Failpoint("before-package-committed");
  DATABOX_RETURN_IF_ERROR(package_->SetState(PackageState::kCommitted));
  return result_;
}

}  // namespace

std::string RawNamespace(const registry::Source& source) { return "raw_" + source.name; }

Result<SourceLoadResult> LoadSource(Workspace& workspace, const registry::Source& source,
                                    const SourceLoadOptions& options) {
  DATABOX_ASSIGN_OR_RETURN(
      std::unique_ptr<source::Source> runner,
      workspace.sources().Make(source, source::SourceInput{options.file, options.targeted}));
  DATABOX_RETURN_IF_ERROR(runner->CanRun());
  if (options.resume && !runner->Resumable()) {
    return MakeError(ErrorKind::kConfig,
                     "source " + source.name + ": --resume applies to HTTP sources; run it again");
  }
  DATABOX_ASSIGN_OR_RETURN(const LoadTurn turn, TakeLoadTurn(workspace, source.name));
  SourceLoad load(workspace, source, options, std::move(runner));
  auto result = load.Run();
  if (result && turn.settled.interrupted > 0) {
    result->notes.push_back(std::to_string(turn.settled.interrupted) +
                            " load package(s) of an earlier, interrupted load marked failed");
  }
  return result;
}

}  // namespace databox::load
