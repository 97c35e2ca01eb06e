// The extract step of a load for kind rest_json: requests (placeholders, auth, pagination,
// windows, pauses), raw pages written to the load package, and records (optionally transformed
// by the resource's DuckDB SQL) streamed to the caller. See docs/sources.md.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "common/error.h"
#include "http/client.h"
#include "registry/model.h"
#include "source/context.h"
#include "source/json_page.h"
#include "source/page_index.h"
#include "source/page_records.h"
#include "source/page_stream.h"
#include "source/records.h"
#include "source/resource_stats.h"

namespace databox::source {

//! Runs the requests of a source's resources with one client. Non-2xx answers fail the resource
//! (kAuth for 401/403, kNotFound for 404, kNetwork for 429/5xx, else kData), except in per-day
//! windows (effective chunk_days = 1 over several days): a day answered with another non-2xx
//! status than 401/403 is skipped and reported in ResourceStats::skipped; if every day fails,
//! the resource fails. Every error names the source, the resource and the redacted URL.
class Extractor {
 public:
  //! kConfig error unless `source` is kind rest_json. `client` is not owned and must outlive
  //! the extractor.
  static Result<Extractor> Make(const registry::Source& source, http::HttpClient* client,
                                LoadContext context);

  //! Called after every response of a resource (stored or skipped) with the counts so far.
  using PageProgress = std::function<void(const ResourceStats& so_far)>;

  //! Requests every page of `resource` and stores them under `folder`/<resource name>/ (any
  //! previous content there is replaced); index.json is written last, so a folder without it
  //! is an extraction that did not finish. `on_page`, when set, sees the counts after each
  //! response, so a display can move while a long resource is fetched.
  //! With `stream`, each page is also handed to it once stored, and the resource's end once
  //! the index is written (page_stream.h).
  Result<ResourceStats> ExtractToFolder(const registry::Resource& resource,
                                        const std::filesystem::path& folder,
                                        const PageProgress& on_page = {},
                                        PageStream* stream = nullptr);

 private:
  //! What one ExtractToFolder call builds up across its request sequences.
  struct FolderState {
    std::filesystem::path dir;     //!< the resource's page folder
    bool per_day = false;          //!< non-2xx days are skipped, not fatal
    PageIndex index;               //!< the pages stored so far
    ResourceStats stats;           //!< the counts so far
    PageProgress on_page;          //!< called after every response, when set
    PageStream* stream = nullptr;  //!< gets every stored page, when set
    int64_t query = 0;             //!< the query of PlanQueries being fetched
  };

  Extractor(const registry::Source& source, http::HttpClient* client, LoadContext context)
      : source_(&source), client_(client), context_(std::move(context)) {}
  //! Requests the pages of one sequence (one query of PlanQueries, one window chunk) with
  //! `query_params` added, keeping at most *remaining_records records (decremented).
  Status ExtractSequence(const registry::Resource& resource,
                         const std::map<std::string, std::string>& query_params,
                         const std::map<std::string, std::string>& chunk,
                         int64_t* remaining_records, FolderState& state);
  //! Sleeps pause_s before every request but the first.
  void Pause();

  const registry::Source* source_;  //!< not owned
  http::HttpClient* client_;        //!< not owned
  LoadContext context_;
  //! Reads the JSON pages (counts their records, keeps the rest for the pager).
  std::unique_ptr<JsonPageReader> pages_ = std::make_unique<JsonPageReader>();
  int64_t requests_sent_ = 0;  //!< over all resources, for pauses
};

//! ExtractToFolder, then RecordsFromFolder: the whole extract step of one resource.
Result<ResourceStats> ExtractRecords(Extractor& extractor, const registry::Source& source,
                                     const registry::Resource& resource,
                                     const std::filesystem::path& folder, const RecordSink& sink);

//! "source <s>, resource <r>", the prefix of every message about a resource.
std::string ResourceLabel(const registry::Source& source, const registry::Resource& resource);

}  // namespace databox::source
