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

std::map<std::string, std::string> Merge(std::map<std::string, std::string> base,
                                         const std::map<std::string, std::string>& over) {
  for (const auto& [k, v] : over) base[k] = v;
  return base;
}

//! The primary key of a row as text (the JSON of its key values), nullopt when the row is not an
//! object holding every key column.
std::optional<std::string> KeyOf(const Json& row, const std::vector<std::string>& primary_key) {
  if (!row.is_object()) return std::nullopt;
  Json values = Json::array();
  for (const std::string& column : primary_key) {
    const auto it = row.find(column);
    if (it == row.end()) return std::nullopt;
    values.push_back(*it);
  }
  return values.dump();
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
                                                 const PageProgress& on_page) {
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
                    .on_page = on_page};
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
  const auto vars = Merge(source.vars, chunk);
  Pager pager(resource.pagination);
  auto request = BuildRequest(source, resource, vars, Merge(query_params, pager.FirstParams()));
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
      auto parsed = ParseJsonBody(response->body, where);
      if (!parsed) return std::unexpected(parsed.error());
      doc = std::move(*parsed);
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
      count = CountJsonRecords(*doc, resource.records_path);
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
    if (auto written = WriteFileBytes(state.dir / entry.file, Redact(response->body)); !written) {
      return std::unexpected(written.error().WithContext(label));
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
      request = BuildRequest(source, resource, vars, Merge(query_params, (*next)->params));
      if (!request) return std::unexpected(request.error().WithContext(label));
    }
  }
  return Ok();
}

Result<ResourceStats> RecordsFromFolder(const registry::Source& source,
                                        const registry::Resource& resource,
                                        const std::filesystem::path& folder,
                                        const RecordSink& sink) {
  const std::string label = ResourceLabel(source, resource);
  const std::filesystem::path dir = folder / resource.name;
  auto index = ReadPageIndex(dir);
  if (!index) return std::unexpected(index.error().WithContext(label));
  if (index->source != source.name || index->resource != resource.name ||
      index->format != FileExtension(resource.format)) {
    return MakeError(ErrorKind::kData, label + ": " + dir.string() + " holds pages of source " +
                                           index->source + ", resource " + index->resource + " (" +
                                           index->format + "); extract this resource again");
  }
  ResourceStats stats;
  stats.resource = resource.name;
  stats.skipped = index->skipped;
  std::unique_ptr<Transformer> transformer;
  if (!resource.transform.empty()) {
    auto made = Transformer::Make(resource.transform);
    if (!made) return std::unexpected(made.error().WithContext(label + ", transform"));
    transformer = std::move(*made);
  }
  // max_records also caps what a transform makes of the records (one array record unnested into
  // many rows), so `--limit` and smoke mode cap every resource's rows.
  const int64_t max_rows =
      resource.pagination.max_records.value_or(std::numeric_limits<int64_t>::max());
  // A reserved query may return rows an earlier query already had: those are dropped (the
  // earlier query's row wins). Duplicates within one query are the resource's merge_duplicates
  // policy's to handle, as without a reserve.
  const bool deduplicate = DeduplicatesAcrossQueries(resource);
  std::set<std::string> earlier_keys;  // keys of the queries before the current page's
  std::set<std::string> current_keys;  // keys of the current page's query
  int64_t current_query = 0;
  const RecordSink counted = [&](Json record) -> Status {
    if (stats.records >= max_rows) return Ok();
    if (deduplicate) {
      const std::optional<std::string> key = KeyOf(record, resource.primary_key);
      if (key && earlier_keys.contains(*key)) {
        ++stats.duplicates;
        return Ok();
      }
      if (key) current_keys.insert(*key);
    }
    ++stats.records;
    return sink(std::move(record));
  };
  for (const PageEntry& page : index->pages) {
    const std::string where = label + ", GET " + page.url;
    if (page.file.find('/') != std::string::npos || page.file.starts_with(".")) {
      return MakeError(ErrorKind::kData, where + ": page file name '" + page.file +
                                             "' in the index is not a plain file name");
    }
    if (page.query != current_query) {
      earlier_keys.merge(current_keys);
      current_keys.clear();
      current_query = page.query;
    }
    auto body = ReadFileBytes(dir / page.file);
    if (!body) return std::unexpected(body.error().WithContext(label));
    ++stats.pages;
    std::vector<Json> batch;
    const RecordSink collect = [&](Json record) -> Status {
      ++stats.extracted;
      if (!transformer) return counted(std::move(record));
      batch.push_back(std::move(record));
      return Ok();
    };
    int64_t first_short_line = 0;
    auto fed = ForEachRecord(*body, resource, page.records, where, collect, &stats.short_rows,
                             &first_short_line);
    if (!fed) return std::unexpected(fed.error());
    if (first_short_line > 0 && stats.first_short_row.empty()) {
      stats.first_short_row = "line " + std::to_string(first_short_line) + " of GET " + page.url;
    }
    if (transformer) {
      const TransformVars vars{.loaded_at = index->loaded_at,
                               .source_url = page.url,
                               .page = page.page,
                               .vars = Merge(source.vars, page.chunk)};
      if (auto run = transformer->Run(batch, vars, counted); !run) {
        return std::unexpected(run.error().WithContext(where + ", transform"));
      }
    }
  }
  return stats;
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
