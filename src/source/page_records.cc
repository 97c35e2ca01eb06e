#include "source/page_records.h"

#include <limits>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "source/extractor.h"
#include "source/query_plan.h"
#include "source/request_builder.h"
#include "source/transform.h"

namespace databox::source {
namespace {

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

//! The records of one resource, fed page after page in the order extraction stored them.
class PageRecords {
 public:
  static Result<std::unique_ptr<PageRecords>> Make(const registry::Source& source,
                                                   const registry::Resource& resource,
                                                   const RecordSink& sink,
                                                   const ElementSink& parsed) {
    std::unique_ptr<PageRecords> records(new PageRecords(source, resource, sink, parsed));
    if (!resource.transform.empty()) {
      auto made = Transformer::Make(resource.transform);
      if (!made) return std::unexpected(made.error().WithContext(records->label_ + ", transform"));
      records->transformer_ = std::move(*made);
    }
    // Records parsed once, by simdjson, when nothing needs them as nlohmann values.
    if (parsed && !records->transformer_ && !records->deduplicate_ &&
        resource.format == registry::ResponseFormat::kJson) {
      records->pages_.emplace();
    }
    return records;
  }

  //! Feeds the records of one stored page.
  Status Feed(const PageEntry& page, std::string_view body,
              std::chrono::system_clock::time_point loaded_at);

  ResourceStats& stats() { return stats_; }
  const std::string& label() const { return label_; }

 private:
  PageRecords(const registry::Source& source, const registry::Resource& resource,
              const RecordSink& sink, const ElementSink& parsed)
      : source_(source),
        resource_(resource),
        sink_(sink),
        parsed_(parsed),
        label_(ResourceLabel(source, resource)),
        max_rows_(resource.pagination.max_records.value_or(std::numeric_limits<int64_t>::max())),
        deduplicate_(DeduplicatesAcrossQueries(resource)) {
    stats_.resource = resource.name;
  }
  //! One record after the transform: max_records and the reserved query's deduplication.
  Status Counted(Json record);

  const registry::Source& source_;
  const registry::Resource& resource_;
  const RecordSink& sink_;
  const ElementSink& parsed_;
  const std::string label_;
  // max_records also caps what a transform makes of the records (one array record unnested into
  // many rows), so `--limit` and smoke mode cap every resource's rows.
  const int64_t max_rows_;
  // A reserved query may return rows an earlier query already had: those are dropped (the
  // earlier query's row wins). Duplicates within one query are the resource's merge_duplicates
  // policy's to handle, as without a reserve.
  const bool deduplicate_;
  std::unique_ptr<Transformer> transformer_;
  std::optional<JsonPageReader> pages_;
  std::set<std::string> earlier_keys_;  //!< keys of the queries before the current page's
  std::set<std::string> current_keys_;  //!< keys of the current page's query
  int64_t current_query_ = 0;
  ResourceStats stats_;
};

Status PageRecords::Counted(Json record) {
  if (stats_.records >= max_rows_) return Ok();
  if (deduplicate_) {
    const std::optional<std::string> key = KeyOf(record, resource_.primary_key);
    if (key && earlier_keys_.contains(*key)) {
      ++stats_.duplicates;
      return Ok();
    }
    if (key) current_keys_.insert(*key);
  }
  ++stats_.records;
  return sink_(std::move(record));
}

Status PageRecords::Feed(const PageEntry& page, std::string_view body,
                         std::chrono::system_clock::time_point loaded_at) {
  const std::string where = label_ + ", GET " + page.url;
  if (page.query != current_query_) {
    earlier_keys_.merge(current_keys_);
    current_keys_.clear();
    current_query_ = page.query;
  }
  ++stats_.pages;
  if (pages_) {
    // The same records as ForEachRecord would feed, already parsed; max_records as Counted.
    DATABOX_ASSIGN_OR_RETURN(
        std::optional<int64_t> fed,
        pages_->ForEachRecord(body, resource_.records_path, page.records,
                              [&](const simdjson::dom::element& record) -> Status {
                                ++stats_.extracted;
                                if (stats_.records >= max_rows_) return Ok();
                                ++stats_.records;
                                return parsed_(record);
                              }));
    if (fed) return Ok();  // else the page is read by nlohmann below (nothing was fed)
  }
  std::vector<Json> batch;
  const RecordSink collect = [&](Json record) -> Status {
    ++stats_.extracted;
    if (!transformer_) return Counted(std::move(record));
    batch.push_back(std::move(record));
    return Ok();
  };
  int64_t first_short_line = 0;
  auto fed = ForEachRecord(body, resource_, page.records, where, collect, &stats_.short_rows,
                           &first_short_line);
  if (!fed) return std::unexpected(fed.error());
  if (first_short_line > 0 && stats_.first_short_row.empty()) {
    stats_.first_short_row = "line " + std::to_string(first_short_line) + " of GET " + page.url;
  }
  if (transformer_) {
    const TransformVars vars{.loaded_at = loaded_at,
                             .source_url = page.url,
                             .page = page.page,
                             .vars = MergeVars(source_.vars, page.chunk)};
    if (auto run =
            transformer_->Run(batch, vars, [this](Json row) { return Counted(std::move(row)); });
        !run) {
      return std::unexpected(run.error().WithContext(where + ", transform"));
    }
  }
  return Ok();
}

}  // namespace

Result<ResourceStats> RecordsFromFolder(const registry::Source& source,
                                        const registry::Resource& resource,
                                        const std::filesystem::path& folder, const RecordSink& sink,
                                        const ElementSink& parsed) {
  DATABOX_ASSIGN_OR_RETURN(auto records, PageRecords::Make(source, resource, sink, parsed));
  const std::string& label = records->label();
  const std::filesystem::path dir = folder / resource.name;
  auto index = ReadPageIndex(dir);
  if (!index) return std::unexpected(index.error().WithContext(label));
  if (index->source != source.name || index->resource != resource.name ||
      index->format != registry::ToString(resource.format)) {
    return MakeError(ErrorKind::kData, label + ": " + dir.string() + " holds pages of source " +
                                           index->source + ", resource " + index->resource + " (" +
                                           index->format + "); extract this resource again");
  }
  records->stats().skipped = index->skipped;
  for (const PageEntry& page : index->pages) {
    if (page.file.find('/') != std::string::npos || page.file.starts_with(".")) {
      return MakeError(ErrorKind::kData, label + ", GET " + page.url + ": page file name '" +
                                             page.file + "' in the index is not a plain file name");
    }
    auto body = ReadFileBytes(dir / page.file);
    if (!body) return std::unexpected(body.error().WithContext(label));
    DATABOX_RETURN_IF_ERROR(records->Feed(page, *body, index->loaded_at));
  }
  return std::move(records->stats());
}

Result<ResourceStats> RecordsFromStream(const registry::Source& source,
                                        const registry::Resource& resource, PageStream& stream,
                                        const RecordSink& sink, const ElementSink& parsed) {
  DATABOX_ASSIGN_OR_RETURN(auto records, PageRecords::Make(source, resource, sink, parsed));
  while (true) {
    DATABOX_ASSIGN_OR_RETURN(std::optional<StoredPage> page, stream.Next(resource.name));
    if (!page) break;
    DATABOX_RETURN_IF_ERROR(records->Feed(page->entry, page->body, page->loaded_at));
  }
  return std::move(records->stats());
}

}  // namespace databox::source
