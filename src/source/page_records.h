// The records of a rest_json resource, page after page, from what extraction stored: read back
// from the load package's folder (a load, a resumed load) or taken from a PageStream while the
// resource is still being fetched (page_stream.h). Either way the same records: max_records,
// a reserved query's deduplication, the resource's transform, and JSON pages read once by
// simdjson when nothing needs the records as nlohmann values (json_page.h).
#pragma once

#include <filesystem>

#include "common/error.h"
#include "registry/model.h"
#include "source/json_page.h"
#include "source/page_stream.h"
#include "source/records.h"
#include "source/resource_stats.h"

namespace databox::source {

//! Produces the records of `resource` from the pages stored under `folder`/<resource name>/,
//! transformed by resource.transform when set (loaded_at comes from the stored index, so a
//! resumed run yields the same values). Records go to `sink` page by page, so memory is bounded
//! by one page. When `parsed` is set, the records of JSON pages of a resource without a transform
//! or a reserved query go to it as parsed by simdjson instead (json_page.h), except on pages only
//! nlohmann reads. kNotFound when the folder holds no finished extraction.
Result<ResourceStats> RecordsFromFolder(const registry::Source& source,
                                        const registry::Resource& resource,
                                        const std::filesystem::path& folder, const RecordSink& sink,
                                        const ElementSink& parsed = {});

//! The same records, from the pages `stream` hands over until the resource's extraction ends;
//! the extraction's error if it fails first.
Result<ResourceStats> RecordsFromStream(const registry::Source& source,
                                        const registry::Resource& resource, PageStream& stream,
                                        const RecordSink& sink, const ElementSink& parsed = {});

}  // namespace databox::source
