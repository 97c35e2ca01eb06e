// The Source of kind targeted (USFWS, docs/avonet.md): an HTTP API driven by a caller-supplied
// target list. The image search is not built yet, so this source refuses to run, saying how
// the target list can be checked meanwhile.
#pragma once

#include <vector>

#include "registry/model.h"
#include "source/source.h"

namespace databox::source {

class TargetedSource final : public Source {
 public:
  //! `source` must outlive this.
  explicit TargetedSource(const registry::Source& source) : source_(&source) {}

  //! kConfig: not built yet.
  Status CanRun() const override;
  bool Resumable() const override { return false; }
  //! The CanRun error.
  Result<StepReport> Extract(const Package& package, const ExtractProgress& progress) override;
  //! None.
  std::vector<const registry::Resource*> Resources() const override { return {}; }
  //! The CanRun error.
  Result<StepReport> Feed(const registry::Resource& resource, const Package& package,
                          const RecordSink& sink) override;

 private:
  const registry::Source* source_;  //!< not owned
};

}  // namespace databox::source
