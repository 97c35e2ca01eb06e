// The Source of kind targeted: the USFWS image search (docs/sources.md, "usfws"), driven by a
// caller-supplied target list. It runs only with one (`databox run usfws --targets FILE`).
// Extraction runs the whole search (UsfwsImageSearch) and keeps its rows in memory, so an abort
// leaves both tables untouched and nothing is written to the package: a load cannot be resumed,
// only run again. The tables, their columns, types and keys are the source's own
// (UsfwsResources()); the registry must declare tables of the same names.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "registry/model.h"
#include "source/records.h"
#include "source/source.h"
#include "sources/usfws/usfws_detail_pool.h"
#include "sources/usfws/usfws_setup.h"

namespace databox::source {

class TargetedSource final : public Source {
 public:
  //! `source` must outlive this. `request` is the caller's (none: CanRun refuses).
  //! `transports` makes the transport of each worker. `replay`: the run answers from
  //! recordings, so retry waits are recorded and reported instead of slept.
  TargetedSource(const registry::Source& source, std::optional<TargetedRequest> request,
                 TransportMaker transports, bool replay);

  //! kConfig without a target list, or when the registry does not declare the source's tables.
  Status CanRun() const override;
  bool Resumable() const override { return false; }
  //! Runs the search; notes: the run id, records kept as unavailable, waits of a replay.
  Result<StepReport> Extract(const Package& package, const ExtractProgress& progress) override;
  //! image_search_runs and image_records.
  std::vector<const registry::Resource*> Resources() const override;
  //! The rows of `resource` from the extracted run.
  Result<StepReport> Feed(const registry::Resource& resource, const Package& package,
                          const RecordSink& sink) override;

 private:
  const registry::Source* source_;  //!< not owned
  std::optional<TargetedRequest> request_;
  TransportMaker transports_;
  bool replay_ = false;
  std::vector<registry::Resource> resources_;      //!< UsfwsResources()
  std::map<std::string, std::vector<Json>> rows_;  //!< by table; set by Extract
};

}  // namespace databox::source
