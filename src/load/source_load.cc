// The load protocol of one source: package, extract (source::Source), normalize, then plan and
// commit. What a source kind does lives in source/; deduplication (merge_dedup.h), table
// planning (table_plan.h) and the commit (load_commit.h) in their own files.
#include "load/source_load.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include "common/failpoint.h"
#include "common/interrupt.h"
#include "common/redact.h"
#include "iceberg/produce/snapshot_producer.h"
#include "load/existing_tables.h"
#include "load/load_database.h"
#include "load/load_id.h"
#include "load/load_package.h"
#include "load/load_turn.h"
#include "load/merge_dedup.h"
#include "load/normalized_tables.h"
#include "load/plan_and_commit.h"
#include "load/resource_hints.h"
#include "load/streamed_files.h"
#include "load/system_tables.h"
#include "load/table_reads.h"
#include "normalize/naming.h"
#include "normalize/normalizer.h"
#include "source/extractor.h"
#include "source/page_stream.h"
#include "source/source.h"

namespace databox::load {
namespace {

//! Records between two progress reports of one resource's normalization.
constexpr int64_t kNormalizeProgressEvery = 10000;

//! kData when a primary key column of `resource` is absent from `root`, the root table of its
//! first batch: no record had the column (a primary_key naming no field, or records of another
//! shape). Checked before anything is committed; later batches may lack the column (nulls).
Status CheckKeyInFirstBatch(const registry::Source& source, const registry::Resource& resource,
                            const normalize::TableSchema& root) {
  for (const std::string& key : resource.primary_key) {
    if (root.FindColumn(normalize::NormalizePath(key)) != nullptr) continue;
    std::string listed;
    for (const normalize::Column& column : root.columns) {
      if (!column.name.starts_with("_dlt_")) listed += (listed.empty() ? "" : ", ") + column.name;
    }
    const std::string at = resource.primary_key_at.empty() ? "" : resource.primary_key_at + ": ";
    return MakeError(ErrorKind::kData,
                     at + source::ResourceLabel(source, resource) + ": primary_key column '" + key +
                         "' of table " + source.Namespace() + "." + resource.name +
                         " is in no record of the first batch (their columns: " +
                         (listed.empty() ? "none" : listed) +
                         "); check primary_key and records_path against the response; "
                         "nothing was committed");
  }
  return Ok();
}

//! One source load in progress; owns the package, the staging database and the source runner.
class SourceLoad {
 public:
  SourceLoad(Workspace& workspace, const registry::Source& source, const SourceLoadOptions& options,
             std::unique_ptr<source::Source> runner)
      : ws_(workspace), source_(source), options_(options), runner_(std::move(runner)) {}

  Result<SourceLoadResult> Run();

 private:
  std::string Label(const registry::Resource& r) const { return source::ResourceLabel(source_, r); }
  //! Progress, one call at a time (extraction may report from its own thread). While pages are
  //! extracted on another thread, the load's phase stays extract: normalization reports only
  //! once extraction ended, or when it fails (`force`), so the last phase reported is the one a
  //! failure belongs to.
  void Report(Phase phase, const std::string& resource, int64_t records,
              std::optional<int64_t> requests = std::nullopt, bool force = false) {
    std::lock_guard lock(report_mu_);
    if (requests) result_.requests = *requests;
    if (phase == Phase::kNormalize && extracting_ && !force) return;
    if (options_.on_progress) {
      options_.on_progress(LoadProgress{source_.name, phase, resource, result_.requests, records});
    }
  }
  source::Package Folders() const {
    return source::Package{result_.load_id, package_->dir(), package_->extract_dir(), pages_};
  }
  void AddNotes(source::StepReport& report) {
    std::lock_guard lock(report_mu_);
    for (std::string& note : report.notes) result_.notes.push_back(std::move(note));
  }
  //! Opens the newest resumable package; true when its load turns out to be committed already.
  Result<bool> Resume();
  Status Extract();
  //! Extracts on another thread while the pages are normalized as they are stored (a source
  //! that StreamsPages()): the extraction's error if it failed on its own, else normalization's.
  Status ExtractWhileNormalizing();
  Status NormalizeAndStage();
  Status NormalizeResource(const registry::Resource& resource);
  Status PlanAndCommit();
  //! Deletes the data files written for a load that will not commit (nothing refers to them).
  void DiscardWritten();
  //! Whether _dlt_load_status already holds a snapshot of this load id: a resumed package whose
  //! commit landed before the process that made it died (its status row commits last or with
  //! the data, so the whole load is in).
  Result<bool> StatusCommitted();

  Workspace& ws_;
  TableReads reads_{ws_.catalog()};  //!< each table read once by this load (table_reads.h)
  const registry::Source& source_;
  const SourceLoadOptions& options_;
  std::unique_ptr<source::Source> runner_;  //!< extracts and feeds the records (source.h)
  std::optional<LoadPackage> package_;
  std::unique_ptr<LoadDatabase> db_;  //!< staging, from normalization to the commit
  //! Data files of the append and replace resources normalized so far, not committed yet.
  std::vector<WrittenTables> written_;
  SourceLoadResult result_;
  int64_t records_fed_ = 0;  //!< records fed to the normalizer so far, over all resources
  std::mutex report_mu_;     //!< Report and result_.requests
  std::atomic<bool> extracting_{false};  //!< extraction runs on another thread
  source::PageStream* pages_ = nullptr;  //!< the pages handed over meanwhile
};

Status SourceLoad::Extract() {
  auto progress = [&](const std::string& name, int64_t requests, int64_t records) {
    Report(Phase::kExtract, name, records, requests);
  };
  DATABOX_ASSIGN_OR_RETURN(source::StepReport report, runner_->Extract(Folders(), progress));
  std::lock_guard lock(report_mu_);
  result_.requests = report.requests;
  // Before the feed's notes, which may have come first while the pages were normalized.
  result_.notes.insert(result_.notes.begin(), std::make_move_iterator(report.notes.begin()),
                       std::make_move_iterator(report.notes.end()));
  return Ok();
}

Status SourceLoad::ExtractWhileNormalizing() {
  source::PageStream stream;
  pages_ = &stream;
  extracting_ = true;
  Status extracted = Ok();
  std::thread extraction([&] {
    extracted = Extract();
    if (extracted) extracted = package_->SetState(PackageState::kExtracted);
    if (extracted) Failpoint("after-extract");
    extracting_ = false;
    stream.Close(extracted ? std::nullopt : std::optional<Error>(extracted.error()));
  });
  Status staged = NormalizeAndStage();
  // A feed that failed on its own stops the extraction; one that failed because extraction did
  // reports the extraction's error.
  const bool feed_failed_first = !staged && !stream.Failed();
  if (feed_failed_first) stream.Cancel();
  extraction.join();
  pages_ = nullptr;
  if (feed_failed_first) {
    Report(Phase::kNormalize, "", records_fed_, std::nullopt, /*force=*/true);
    return staged;
  }
  if (!extracted) {
    Report(Phase::kExtract, "", records_fed_);
    return extracted;
  }
  return staged;
}

Status SourceLoad::NormalizeResource(const registry::Resource& resource) {
  DATABOX_ASSIGN_OR_RETURN(auto hints, HintsFor(source_, resource));
  // The resource's tables as earlier loads left them (existing_tables.h).
  normalize::NormalizerOptions options;
  DATABOX_ASSIGN_OR_RETURN(options.known_tables,
                           ExistingTables(reads_, source_.Namespace(), hints));
  DATABOX_ASSIGN_OR_RETURN(
      auto normalizer,
      normalize::Normalizer::Make(std::move(hints), result_.load_id, std::move(options)));
  // Append and replace: the batches go to data files as they come (memory holds the batches in
  // flight, whatever the resource's size); merge: staged for deduplication and the upsert.
  std::optional<StreamedFiles> streamed;
  if (resource.write_disposition != registry::WriteDisposition::kMerge) {
    streamed.emplace(
        db_->database(), *ws_.file_io(),
        [this](const normalize::TableSchema& schema) {
          return StreamTarget(ws_, reads_, source_, schema);
        },
        StreamedFiles::Options{});
  }
  bool key_checked = false;
  auto stage = [&]() -> Status {
    for (normalize::TableBatch& batch : normalizer->Flush()) {
      if (!key_checked && batch.schema.parent.empty() && batch.num_rows > 0) {
        DATABOX_RETURN_IF_ERROR(CheckKeyInFirstBatch(source_, resource, batch.schema));
        key_checked = true;
      }
      DATABOX_RETURN_IF_ERROR(streamed ? streamed->Push(std::move(batch))
                                       : db_->tables().Add(resource, batch));
    }
    return Ok();
  };
  int64_t records = 0;
  auto after = [&](Status added) -> Status {
    if (!added) {
      return std::unexpected(
          added.error().WithContext(Label(resource) + ", record " + std::to_string(records + 1)));
    }
    ++records;
    if (records % kNormalizeProgressEvery == 0) {
      Report(Phase::kNormalize, resource.name, records_fed_ + records);
    }
    if (normalizer->BufferedRows() >= options_.flush_rows) return stage();
    return Ok();
  };
  auto sink = [&](nlohmann::ordered_json record) { return after(normalizer->Add(record)); };
  auto parsed = [&](const simdjson::dom::element& record) {
    return after(normalizer->AddJsonElement(record));
  };
  DATABOX_ASSIGN_OR_RETURN(source::StepReport fed,
                           runner_->FeedParsed(resource, Folders(), sink, parsed));
  AddNotes(fed);
  DATABOX_RETURN_IF_ERROR(stage());
  if (streamed) {
    DATABOX_ASSIGN_OR_RETURN(auto tables, streamed->Finish());
    written_.push_back(WrittenTables{&resource, std::move(tables)});
  }
  records_fed_ += records;
  Report(Phase::kNormalize, resource.name, records_fed_);
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
      load::PlanAndCommit(
          ws_, reads_, db_->conn(), source_, db_->tables(), result_.load_id,
          [&] { Report(Phase::kCommit, "", records_fed_); }, std::move(written_)));
  result_.tables = std::move(committed.tables);
  result_.rows_loaded = committed.rows_loaded;
  return Ok();
}

void SourceLoad::DiscardWritten() {
  for (const WrittenTables& group : written_) {
    for (const auto& [name, table] : group.tables) load::DiscardWritten(*ws_.file_io(), table);
  }
  written_.clear();
}

Result<bool> SourceLoad::StatusCommitted() {
  auto loaded =
      ws_.catalog().LoadTable(iceberg::TableIdentifier{{source_.Namespace()}, kLoadStatusTable});
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
  const bool pipelined = !options_.resume && runner_->StreamsPages();
  if (!options_.resume && !pipelined) {
    if (auto extracted = Extract(); !extracted) return fail(extracted.error());
    DATABOX_RETURN_IF_ERROR(package_->SetState(PackageState::kExtracted));
    Failpoint("after-extract");
  }
  if (auto staged = pipelined ? ExtractWhileNormalizing() : NormalizeAndStage(); !staged) {
    DiscardWritten();
    return fail(staged.error());
  }
  if (auto stop = CheckInterrupted("source " + source_.name); !stop) {
    DiscardWritten();
    return fail(stop.error());
  }
  if (auto committed = PlanAndCommit(); !committed) return fail(committed.error());
  Failpoint("before-package-committed");
  DATABOX_RETURN_IF_ERROR(package_->SetState(PackageState::kCommitted));
  return result_;
}

}  // namespace

Result<SourceLoadResult> LoadSource(Workspace& workspace, const registry::Source& source,
                                    const SourceLoadOptions& options) {
  source::SourceInput input{options.kind_options};
  if (options.file)
    input.options.insert_or_assign(source::kLocalFileOption, options.file->string());
  DATABOX_ASSIGN_OR_RETURN(std::unique_ptr<source::Source> runner,
                           workspace.sources().Make(source, input));
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
