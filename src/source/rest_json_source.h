// The Source of kind rest_json: every enabled resource's pages requested by an Extractor and
// stored in the package's extract folder, so a package whose extraction finished can be fed
// again without a request (resumable), read back page by page (RecordsFromFolder). A load feeds
// the pages as they are stored, while extraction goes on (page_stream.h, RecordsFromStream).
#pragma once

#include <memory>
#include <vector>

#include "registry/model.h"
#include "source/source.h"

namespace databox::source {

class RestJsonSource final : public Source {
 public:
  //! `source` must outlive this; `make_client` is called once, when extraction starts.
  RestJsonSource(const registry::Source& source, ClientMaker make_client)
      : source_(&source), make_client_(std::move(make_client)) {}

  Status CanRun() const override { return Ok(); }
  bool Resumable() const override { return true; }
  bool StreamsPages() const override { return true; }
  //! Skipped days (per-day windows) are reported as notes.
  Result<StepReport> Extract(const Package& package, const ExtractProgress& progress) override;
  std::vector<const registry::Resource*> Resources() const override;
  //! RDB rows skipped for having too few fields are reported as a note.
  Result<StepReport> Feed(const registry::Resource& resource, const Package& package,
                          const RecordSink& sink) override;
  //! JSON pages without a transform or a reserved query's deduplication: records to `parsed`.
  Result<StepReport> FeedParsed(const registry::Resource& resource, const Package& package,
                                const RecordSink& sink, const ElementSink& parsed) override;

 private:
  const registry::Source* source_;  //!< not owned
  ClientMaker make_client_;
};

}  // namespace databox::source
