#include "source/rest_json_source.h"

#include "source/context.h"
#include "source/extractor.h"

namespace databox::source {
namespace {

//! The run's report of RDB rows the parser skipped for having fewer fields than the header
//! (docs/sources.md): they are not loaded, so the count must not stay silent.
std::string ShortRowsNote(const registry::Source& source, const registry::Resource& resource,
                          const ResourceStats& stats) {
  std::string note = ResourceLabel(source, resource) + ": skipped " +
                     std::to_string(stats.short_rows) +
                     " RDB row(s) with fewer fields than the header";
  if (!stats.first_short_row.empty()) note += " (first at " + stats.first_short_row + ")";
  return note;
}

//! The enabled resources of `source`, in registry order.
std::vector<const registry::Resource*> EnabledResources(const registry::Source& source) {
  std::vector<const registry::Resource*> enabled;
  for (const registry::Resource& resource : source.resources) {
    if (resource.enabled) enabled.push_back(&resource);
  }
  return enabled;
}

}  // namespace

Result<StepReport> RestJsonSource::Extract(const Package& package,
                                           const ExtractProgress& progress) {
  DATABOX_ASSIGN_OR_RETURN(http::HttpClient client, make_client_());
  DATABOX_ASSIGN_OR_RETURN(auto extractor,
                           Extractor::Make(*source_, &client, MakeLoadContext(package.load_id)));
  StepReport report;
  int64_t records = 0;  // in the resources before this one
  for (const registry::Resource* resource : EnabledResources(*source_)) {
    progress(resource->name, report.requests, records);
    const auto on_page = [&](const ResourceStats& so_far) {
      progress(resource->name, report.requests + so_far.requests, records + so_far.extracted);
    };
    DATABOX_ASSIGN_OR_RETURN(
        ResourceStats stats,
        extractor.ExtractToFolder(*resource, package.extract_dir, on_page, package.pages));
    report.requests += stats.requests;
    records += stats.extracted;
    for (const SkippedRequest& skipped : stats.skipped) {
      report.notes.push_back(ResourceLabel(*source_, *resource) + ": skipped " + skipped.url +
                             " (HTTP " + std::to_string(skipped.status) + ")");
    }
  }
  return report;
}

std::vector<const registry::Resource*> RestJsonSource::Resources() const {
  return EnabledResources(*source_);
}

Result<StepReport> RestJsonSource::Feed(const registry::Resource& resource, const Package& package,
                                        const RecordSink& sink) {
  return FeedParsed(resource, package, sink, nullptr);
}

Result<StepReport> RestJsonSource::FeedParsed(const registry::Resource& resource,
                                              const Package& package, const RecordSink& sink,
                                              const ElementSink& parsed) {
  DATABOX_ASSIGN_OR_RETURN(
      ResourceStats stats,
      package.pages != nullptr
          ? RecordsFromStream(*source_, resource, *package.pages, sink, parsed)
          : RecordsFromFolder(*source_, resource, package.extract_dir, sink, parsed));
  StepReport report;
  if (stats.short_rows > 0) report.notes.push_back(ShortRowsNote(*source_, resource, stats));
  if (stats.duplicates > 0) {
    report.notes.push_back(ResourceLabel(*source_, resource) + ": dropped " +
                           std::to_string(stats.duplicates) +
                           " row(s) repeating a key already read (the reserved query overlaps the "
                           "main one)");
  }
  return report;
}

}  // namespace databox::source
