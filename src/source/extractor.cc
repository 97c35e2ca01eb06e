#include "source/extractor.h"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <optional>
#include <set>
#include <thread>

#include "common/interrupt.h"
#include "common/redact.h"
#include "fileio/durable.h"
#include "source/pager.h"
#include "source/query_plan.h"
#include "source/request_builder.h"
#include "source/transform.h"
#include "source/window.h"

namespace databox::source {
namespace {

//! Guard against endpoints that never stop paginating.
constexpr int64_t kMaxPagesPerChunk = 100'000;
//! Longest part of an upstream error payload quoted in a message.
constexpr std::size_t kMaxQuotedError = 200;

std::string FileExtension(registry::ResponseFormat format) {
  return std::string(registry::ToString(format));
}

std::string PageFileName(int64_t n, registry::ResponseFormat format) {
  char name[32];
  std::snprintf(name, sizeof name, "page-%06lld.", static_cast<long long>(n));
  return name + FileExtension(format);
}

//! How many records SelectJsonRecords would feed for this document.
int64_t CountJsonRecords(const Json& doc, const std::string& records_path) {
  if (records_path == "$") return 1;
  const Json* node = FindPath(doc, records_path);
  if (node == nullptr || node->is_null()) return 0;
  return node->is_array() ? static_cast<int64_t>(node->size()) : 1;
}

//! Whether no path extraction reads in a page (pagination, error_path) lies at or under the
//! records: then the page without its records (JsonPageReader::Outline) serves as the page.
bool PathsOutsideRecords(const registry::Resource& resource) {
  const std::string& records = resource.records_path;
  const registry::Pagination& p = resource.pagination;
  for (const std::string* path :
       {&resource.error_path, &p.total_path, &p.end_flag_path, &p.num_pages_path, &p.next_path}) {
    if (path->empty()) continue;
    if (*path == "$" || *path == records || path->starts_with(records + ".")) return false;
  }
  return true;
}

ErrorKind KindOfStatus(long status) {
  if (status == 401 || status == 403) return ErrorKind::kAuth;
  if (status == 404) return ErrorKind::kNotFound;
  if (status == 429 || status >= 500) return ErrorKind::kNetwork;
  return ErrorKind::kData;
}

std::string HintOfStatus(long status) {
  switch (KindOfStatus(status)) {
    case ErrorKind::kAuth:
      return "check the source's credential in [source.auth]";
    case ErrorKind::kNotFound:
      return "check the resource's path and [source.vars]";
    case ErrorKind::kNetwork:
      return "the service is unavailable or rate-limiting; retry the load later";
    default:
      return "check the resource's params";
  }
}

//! True when the resource's path or params (its refinement's too) use a window placeholder.
bool UsesWindow(const registry::Source& source, const registry::Resource& resource) {
  if (UsesWindowPlaceholder(resource.path)) return true;
  std::vector<const std::map<std::string, std::string>*> layers = {&source.params,
                                                                   &resource.params};
  if (resource.refine) {
    layers.push_back(&resource.refine->params);
    if (resource.refine->reserve) layers.push_back(&resource.refine->reserve->params);
  }
  for (const auto* params : layers) {
    for (const auto& [name, value] : *params) {
      if (UsesWindowPlaceholder(value)) return true;
    }
  }
  return false;
}

}  // namespace

std::string ResourceLabel(const registry::Source& source, const registry::Resource& resource) {
  return "source " + source.name + ", resource " + resource.name;
}

Result<Extractor> Extractor::Make(const registry::Source& source, http::HttpClient* client,
                                  LoadContext context) {
  if (source.kind != registry::SourceKind::kRestJson) {
    return MakeError(ErrorKind::kConfig,
                     "source " + source.name + " is of kind " +
                         std::string(registry::ToString(source.kind)) +
                         "; the rest_json extractor runs only rest_json sources");
  }
  if (client == nullptr) return MakeError(ErrorKind::kInternal, "Extractor needs an HTTP client");
  return Extractor(source, client, std::move(context));
}

void Extractor::Pause() {
  if (requests_sent_++ == 0 || source_->pause_s <= 0) return;
  const auto pause = std::chrono::milliseconds(static_cast<int64_t>(source_->pause_s * 1000));
  if (context_.sleep) {
    context_.sleep(pause);
  } else {
    std::this_thread::sleep_for(pause);
  }
}

Result<ResourceStats> Extractor::ExtractToFolder(const registry::Resource& resource,
                                                 const std::filesystem::path& folder,
                                                 const PageProgress& on_page, PageStream* stream) {
  const registry::Source& source = *source_;
  const std::string label = ResourceLabel(source, resource);
  if (resource.format == registry::ResponseFormat::kXlsx) {
    return MakeError(ErrorKind::kConfig,
                     label + ": format xlsx is read by the file source runner, not by rest_json");
  }
  const std::filesystem::path dir = folder / resource.name;
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
  if (Status created = fileio::CreateFoldersDurably(dir); !created) {
    return std::unexpected(created.error().WithContext(label));
  }

  // One request sequence per window chunk; a resource without window placeholders has one.
  std::vector<std::map<std::string, std::string>> chunks;
  bool per_day = false;
  if (UsesWindow(source, resource) && source.window) {
    auto planned = PlanWindow(*source.window, resource.chunk_days, context_.today);
    if (!planned) return std::unexpected(planned.error().WithContext(label));
    for (const WindowChunk& c : *planned) chunks.push_back(c.Vars());
    per_day = planned->size() > 1 && resource.chunk_days.value_or(source.window->chunk_days) == 1;
  } else {
    chunks.emplace_back();
  }

  FolderState state{.dir = dir,
                    .per_day = per_day,
                    .index = PageIndex{.source = source.name,
                                       .resource = resource.name,
                                       .format = FileExtension(resource.format),
                                       .load_id = context_.load_id,
                                       .loaded_at = context_.loaded_at,
                                       .pages = {},
                                       .skipped = {}},
                    .stats = {},
                    .on_page = on_page,
                    .stream = stream};
  state.stats.resource = resource.name;
  const std::vector<QueryPlan> queries = PlanQueries(resource);
  for (size_t q = 0; q < queries.size(); ++q) {
    const QueryPlan& query = queries[q];
    state.query = static_cast<int64_t>(q);
    int64_t remaining = query.max_records.value_or(std::numeric_limits<int64_t>::max());
    for (const auto& chunk : chunks) {
      if (remaining <= 0) break;
      DATABOX_RETURN_IF_ERROR(ExtractSequence(resource, query.params, chunk, &remaining, state));
    }
  }
  PageIndex& index = state.index;
  ResourceStats& stats = state.stats;
  if (per_day && index.pages.empty() && !stats.skipped.empty()) {
    return MakeError(ErrorKind::kData, label + ": every day of the window failed (first: GET " +
                                           stats.skipped.front().url + " answered HTTP " +
                                           std::to_string(stats.skipped.front().status) + ")");
  }
  index.requests = stats.requests;
  index.skipped = stats.skipped;
  if (auto written = WritePageIndex(dir, index); !written) {
    return std::unexpected(written.error().WithContext(label));
  }
  if (stream != nullptr) DATABOX_RETURN_IF_ERROR(stream->EndResource(resource.name));
  return stats;
}

Status Extractor::ExtractSequence(const registry::Resource& resource,
                                  const std::map<std::string, std::string>& query_params,
                                  const std::map<std::string, std::string>& chunk,
                                  int64_t* remaining_records, FolderState& state) {
  const registry::Source& source = *source_;
  const std::string label = ResourceLabel(source, resource);
  const std::string origin = UrlOrigin(source.base_url);
  int64_t& remaining = *remaining_records;
  ResourceStats& stats = state.stats;
  const auto vars = MergeVars(source.vars, chunk);
  Pager pager(resource.pagination);
  const bool outline_pages = PathsOutsideRecords(resource);
  auto request = BuildRequest(source, resource, vars, MergeVars(query_params, pager.FirstParams()));
  if (!request) return std::unexpected(request.error().WithContext(label));
  for (int64_t page = 1;; ++page) {
    const std::string url = RedactUrl(request->url);
    const std::string where = label + ", GET " + url;
    if (page > kMaxPagesPerChunk) {
      return MakeError(ErrorKind::kData, where + ": more than " +
                                             std::to_string(kMaxPagesPerChunk) +
                                             " pages; set pagination.max_records");
    }
    DATABOX_RETURN_IF_ERROR(CheckInterrupted(label));
    Pause();
    DATABOX_RETURN_IF_ERROR(CheckInterrupted(label));  // the pause may be long
    ++stats.requests;
    auto response = client_->Send(*request);
    if (!response) return std::unexpected(response.error().WithContext(label));
    if (!response->ok()) {
      const long status = response->status;
      if (state.per_day && KindOfStatus(status) != ErrorKind::kAuth) {
        stats.skipped.push_back({url, status, chunk});
        if (state.on_page) state.on_page(stats);
        break;
      }
      return MakeError(KindOfStatus(status), where + " answered HTTP " + std::to_string(status) +
                                                 "; " + HintOfStatus(status));
    }

    int64_t count = 0;
    std::optional<Json> doc;
    if (resource.format == registry::ResponseFormat::kJson) {
      // The records are only counted here: simdjson counts them and keeps the rest of the page
      // for the pager and the error path, unless only nlohmann reads the page right.
      std::optional<PageOutline> outline;
      if (outline_pages) outline = pages_->Outline(response->body, resource.records_path);
      if (outline) {
        doc = std::move(outline->rest);
      } else {
        auto parsed = ParseJsonBody(response->body, where);
        if (!parsed) return std::unexpected(parsed.error());
        doc = std::move(*parsed);
      }
      if (!resource.error_path.empty()) {
        const Json* error = FindPath(*doc, resource.error_path);
        if (error != nullptr && !error->is_null()) {
          std::string quoted =
              Redact(error->is_string() ? error->get<std::string>() : error->dump());
          if (quoted.size() > kMaxQuotedError) quoted = quoted.substr(0, kMaxQuotedError) + "...";
          return MakeError(ErrorKind::kData, where + ": the response reports an error at '" +
                                                 resource.error_path + "': " + quoted);
        }
      }
      count = outline ? outline->records : CountJsonRecords(*doc, resource.records_path);
    } else {
      // Other formats are counted (and checked) by reading them as the load will.
      DATABOX_ASSIGN_OR_RETURN(
          count, ForEachRecord(
                     response->body, resource, std::numeric_limits<int64_t>::max(), where,
                     [](Json) { return Ok(); }, nullptr));
    }

    const int64_t kept = std::min(count, remaining);
    remaining -= kept;
    PageEntry entry{.file = PageFileName(stats.pages + 1, resource.format),
                    .url = url,
                    .status = response->status,
                    .page = page,
                    .chunk = chunk,
                    .records = kept,
                    .query = state.query};
    // A server that echoes the request (its URL, its headers) would put the source's
    // credential in the page; the stored page, and the records read from it, have it masked.
    std::string stored = Redact(response->body);
    if (auto written = WriteFileBytes(state.dir / entry.file, stored); !written) {
      return std::unexpected(written.error().WithContext(label));
    }
    if (state.stream != nullptr) {
      DATABOX_RETURN_IF_ERROR(state.stream->Put(
          resource.name, StoredPage{entry, std::move(stored), state.index.loaded_at}));
    }
    state.index.pages.push_back(std::move(entry));
    ++stats.pages;
    stats.extracted += kept;
    if (state.on_page) state.on_page(stats);
    if (remaining <= 0) break;

    auto next = pager.Advance(count, doc ? &*doc : nullptr);
    if (!next) return std::unexpected(next.error().WithContext(where));
    if (!next->has_value()) break;
    if ((*next)->url) {
      const std::string& link = *(*next)->url;
      if (UrlOrigin(link) != origin) {
        return MakeError(ErrorKind::kData, where + ": the next-page link " + RedactUrl(link) +
                                               " leaves the source's host " + origin +
                                               "; refusing to send credentials elsewhere");
      }
      request->url = link;
      ApplyAuth(source.auth, &*request);
    } else {
      request = BuildRequest(source, resource, vars, MergeVars(query_params, (*next)->params));
      if (!request) return std::unexpected(request.error().WithContext(label));
    }
  }
  return Ok();
}

Result<ResourceStats> ExtractRecords(Extractor& extractor, const registry::Source& source,
                                     const registry::Resource& resource,
                                     const std::filesystem::path& folder, const RecordSink& sink) {
  DATABOX_ASSIGN_OR_RETURN(ResourceStats fetched, extractor.ExtractToFolder(resource, folder));
  DATABOX_ASSIGN_OR_RETURN(ResourceStats stats, RecordsFromFolder(source, resource, folder, sink));
  stats.requests = fetched.requests;
  return stats;
}

}  // namespace databox::source
