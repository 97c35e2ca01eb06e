#include "sources/usfws/targeted_source.h"

#include <algorithm>

#include "sources/usfws/usfws_rows.h"
#include "sources/usfws/usfws_run.h"

namespace databox::source {

TargetedSource::TargetedSource(const registry::Source& source,
                               std::optional<TargetedRequest> request, TransportMaker transports,
                               bool replay)
    : source_(&source),
      request_(std::move(request)),
      transports_(std::move(transports)),
      replay_(replay),
      resources_(UsfwsResources()) {}

Status TargetedSource::CanRun() const {
  if (!request_) {
    return MakeError(ErrorKind::kConfig, "source " + source_->name +
                                             " runs only with caller-supplied targets: `databox "
                                             "run " +
                                             source_->name + " --targets FILE`");
  }
  for (const registry::Resource& table : resources_) {
    if (std::ranges::none_of(source_->resources, [&](const registry::Resource& declared) {
          return declared.name == table.name;
        })) {
      return MakeError(ErrorKind::kConfig, "source " + source_->name +
                                               ": the registry does not declare the table " +
                                               table.name + "; add a [[source.resource]] so named");
    }
  }
  return Ok();
}

Result<StepReport> TargetedSource::Extract(const Package&, const ExtractProgress& progress) {
  DATABOX_RETURN_IF_ERROR(CanRun());
  if (progress) progress(source_->name, 0, 0);
  RecordedWaits replay_waits;
  DATABOX_ASSIGN_OR_RETURN(auto search,
                           UsfwsImageSearch::Make(request_->targets, request_->options, transports_,
                                                  replay_ ? &replay_waits : nullptr));
  auto rows = search.Rows();
  if (!rows) return std::unexpected(rows.error().WithContext("source " + source_->name));
  StepReport report;
  report.notes.push_back("run id " + search.run_id());
  const auto unavailable = std::ranges::count_if((*rows)->records, [](const Json& record) {
    return record["detail_fetch_status"] == "unavailable_after_retries";
  });
  if (unavailable > 0) {
    report.notes.push_back(std::to_string(unavailable) +
                           " image record(s) kept as unavailable_after_retries: their media "
                           "page failed every attempt");
  }
  if (!replay_waits.Summary().empty()) {
    report.notes.push_back("replay: retry waits recorded, not slept: " + replay_waits.Summary());
  }
  rows_[std::string(kRunsTable)] = (*rows)->runs;
  rows_[std::string(kRecordsTable)] = (*rows)->records;
  return report;
}

std::vector<const registry::Resource*> TargetedSource::Resources() const {
  std::vector<const registry::Resource*> out;
  for (const registry::Resource& resource : resources_) out.push_back(&resource);
  return out;
}

Result<StepReport> TargetedSource::Feed(const registry::Resource& resource, const Package&,
                                        const RecordSink& sink) {
  auto rows = rows_.find(resource.name);
  if (rows == rows_.end()) {
    return MakeError(ErrorKind::kInternal, "source " + source_->name + ": table " + resource.name +
                                               " fed before the search ran");
  }
  for (Json& row : rows->second) DATABOX_RETURN_IF_ERROR(sink(std::move(row)));
  rows_.erase(rows);
  return StepReport{};
}

}  // namespace databox::source
