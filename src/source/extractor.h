// The extract step of a load for kind rest_json: requests (placeholders, auth, pagination,
// windows, pauses), raw pages written to the load package, and records (optionally transformed
// by the resource's DuckDB SQL) streamed to the caller. See docs/sources.md.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "common/error.h"
#include "http/client.h"
#include "registry/model.h"
#include "source/context.h"
#include "source/page_index.h"
#include "source/records.h"

namespace databox::source {

//! What happened to one resource.
struct ResourceStats {
  std::string resource;
  int64_t requests = 0;                 //!< HTTP requests sent, skipped ones included (0 from disk)
  int64_t pages = 0;                    //!< responses stored / read
  int64_t extracted = 0;                //!< records selected from the responses (after max_records)
  int64_t records = 0;                  //!< records emitted (after the transform)
  int64_t duplicates = 0;               //!< rows dropped for repeating a key (reserved query)
  int64_t short_rows = 0;               //!< RDB rows skipped for having too few fields
  std::string first_short_row;          //!< where the first of them is: "line N of GET <url>"
  std::vector<SkippedRequest> skipped;  //!< non-2xx answers skipped and reported
};

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
  Result<ResourceStats> ExtractToFolder(const registry::Resource& resource,
                                        const std::filesystem::path& folder,
                                        const PageProgress& on_page = {});

 private:
  //! What one ExtractToFolder call builds up across its request sequences.
  struct FolderState {
    std::filesystem::path dir;  //!< the resource's page folder
    bool per_day = false;       //!< non-2xx days are skipped, not fatal
    PageIndex index;            //!< the pages stored so far
    ResourceStats stats;        //!< the counts so far
    PageProgress on_page;       //!< called after every response, when set
    int64_t query = 0;          //!< the query of PlanQueries being fetched
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
  int64_t requests_sent_ = 0;  //!< over all resources, for pauses
};

//! Produces the records of `resource` from the pages stored under `folder`/<resource name>/,
//! transformed by resource.transform when set (loaded_at comes from the stored index, so a
//! resumed run yields the same values). Records go to `sink` page by page, so memory is bounded
//! by one page. kNotFound when the folder holds no finished extraction.
Result<ResourceStats> RecordsFromFolder(const registry::Source& source,
                                        const registry::Resource& resource,
                                        const std::filesystem::path& folder,
                                        const RecordSink& sink);

//! ExtractToFolder, then RecordsFromFolder: the whole extract step of one resource.
Result<ResourceStats> ExtractRecords(Extractor& extractor, const registry::Source& source,
                                     const registry::Resource& resource,
                                     const std::filesystem::path& folder, const RecordSink& sink);

//! "source <s>, resource <r>", the prefix of every message about a resource.
std::string ResourceLabel(const registry::Source& source, const registry::Resource& resource);

}  // namespace databox::source
