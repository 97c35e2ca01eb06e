#include "sources/avonet/pinned_file_source.h"

#include "source/context.h"
#include "source/extractor.h"

namespace databox::source {

Result<StepReport> PinnedFileSource::Extract(const Package& package,
                                             const ExtractProgress& progress) {
  progress(source_->name, 0, 0);
  AvonetInput input;
  input.local_file = local_file_;
  input.work_dir = package.dir;
  std::optional<http::HttpClient> client;
  if (!input.local_file) {
    DATABOX_ASSIGN_OR_RETURN(auto made, make_client_());
    client.emplace(std::move(made));
    input.client = &*client;
  }
  DATABOX_ASSIGN_OR_RETURN(auto extracted,
                           ExtractAvonet(*source_, input, MakeLoadContext(package.load_id)));
  for (const registry::Resource& resource : source_->resources) {
    if (resource.enabled && resource.name == extracted.table) table_ = AvonetResource(resource);
  }
  extract_.emplace(std::move(extracted));
  return StepReport{};
}

std::vector<const registry::Resource*> PinnedFileSource::Resources() const {
  std::vector<const registry::Resource*> fed;
  if (extract_ && table_) fed.push_back(&*table_);
  return fed;
}

Result<StepReport> PinnedFileSource::Feed(const registry::Resource& resource, const Package&,
                                          const RecordSink& sink) {
  if (!extract_ || resource.name != extract_->table) {
    return MakeError(ErrorKind::kInternal,
                     ResourceLabel(*source_, resource) + ": no validated records (extract first)");
  }
  for (Json& record : extract_->records) DATABOX_RETURN_IF_ERROR(sink(std::move(record)));
  return StepReport{};
}

}  // namespace databox::source
