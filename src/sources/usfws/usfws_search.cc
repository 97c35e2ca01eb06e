#include "sources/usfws/usfws_search.h"

#include <nlohmann/json.hpp>

#include "sources/usfws/python_text.h"

namespace databox::source {
namespace {

using SearchJson = nlohmann::json;

std::string Quoted(std::string_view text) { return "\"" + std::string(text) + "\""; }

Error Abort(ErrorKind kind, std::string_view where, const std::string& what) {
  return Error{kind, std::string(where) + ": " + what + "; the run was aborted, nothing is loaded"};
}

//! Whether _meta.facets.<facet> confirms the requested filter with `total` results.
bool FacetConfirms(const SearchJson& meta, const SearchQuery& query, int64_t total) {
  const auto facets = meta.find("facets");
  if (facets == meta.end() || !facets->is_object()) return false;
  const auto entries = facets->find(query.facet);
  if (entries == facets->end() || !entries->is_array()) return false;
  for (const SearchJson& entry : *entries) {
    if (!entry.is_object()) continue;
    const auto filter = entry.find("filter");
    const auto count = entry.find("count");
    if (filter != entry.end() && filter->is_string() && *filter == query.facet_value &&
        count != entry.end() && count->is_number_integer() && count->get<int64_t>() == total) {
      return true;
    }
  }
  return false;
}

//! Adds the cards of one search to `merged` (keyed by source page URL, first card wins).
Status MergeCards(const SearchQuery& query, const std::vector<std::string>& cards,
                  std::vector<Candidate>& merged, std::map<std::string, std::size_t>& index,
                  int max_images, std::string_view where) {
  for (const std::string& html : cards) {
    DATABOX_ASSIGN_OR_RETURN(Card card, ParseCard(html));
    auto [it, inserted] = index.emplace(card.source_page_url, merged.size());
    if (inserted) {
      if (merged.size() >= static_cast<std::size_t>(max_images)) {
        return std::unexpected(Abort(ErrorKind::kData, where,
                                     "more than max_images_per_target = " +
                                         std::to_string(max_images) + " distinct images"));
      }
      merged.push_back(Candidate{std::move(card), {}, {}});
    }
    merged[it->second].labels.insert(query.label);
    merged[it->second].endpoints.insert(query.endpoint);
  }
  return Ok();
}

//! Every card of one search, page by page.
Result<std::vector<std::string>> RunQuery(UsfwsFetcher& fetcher, const SearchQuery& query,
                                          int max_images, const std::string& where) {
  std::vector<std::string> cards;
  std::optional<int64_t> total;
  int64_t offset = 0;
  while (!total || static_cast<int64_t>(cards.size()) < *total) {
    const std::string page_where = where + ", page at offset " + std::to_string(offset);
    auto body = fetcher.Get(PageUrl(query, offset), kSearchBodyLimit);
    if (!body) {
      const bool exhausted = body.error().failure == FetchFailure::kRetriesExhausted;
      return std::unexpected(Abort(exhausted ? ErrorKind::kNetwork : ErrorKind::kData, page_where,
                                   "request failed after " + std::to_string(body.error().attempts) +
                                       " attempt(s): " + body.error().reason));
    }
    DATABOX_ASSIGN_OR_RETURN(SearchPage page, ParseSearchPage(*body, query, page_where));
    if (total && page.total != *total) {
      return std::unexpected(Abort(ErrorKind::kData, page_where,
                                   "total changed from " + std::to_string(*total) + " to " +
                                       std::to_string(page.total) + " between pages"));
    }
    total = page.total;
    if (page.total > max_images) {
      return std::unexpected(
          Abort(ErrorKind::kData, page_where,
                "total " + std::to_string(page.total) +
                    " is over max_images_per_target = " + std::to_string(max_images)));
    }
    const auto received = static_cast<int64_t>(page.cards.size());
    if (static_cast<int64_t>(cards.size()) + received > page.total) {
      return std::unexpected(Abort(ErrorKind::kData, page_where,
                                   "more results than the total of " + std::to_string(page.total)));
    }
    if (received == 0 && static_cast<int64_t>(cards.size()) < page.total) {
      return std::unexpected(Abort(ErrorKind::kData, page_where,
                                   "an empty page after " + std::to_string(cards.size()) + " of " +
                                       std::to_string(page.total) + " results"));
    }
    for (std::string& card : page.cards) cards.push_back(std::move(card));
    offset += received;
  }
  return cards;
}

}  // namespace

std::vector<SearchQuery> QueriesFor(const Target& target) {
  const std::string image_type = AsciiJsonArray({"Image"});
  return {
      SearchQuery{"species_facet",
                  std::string(kSearchImagesEndpoint),
                  {{"species", AsciiJsonArray({target.common_name})},
                   {"$orderby", "field_document_publication_date desc"}},
                  "species",
                  target.common_name},
      SearchQuery{"exact_common_name",
                  std::string(kGlobalSearchEndpoint),
                  {{"$keywords", Quoted(target.common_name)},
                   {"type", image_type},
                   {"$orderby", "search_api_relevance desc"}},
                  "type",
                  "Image"},
      SearchQuery{"exact_scientific_name",
                  std::string(kGlobalSearchEndpoint),
                  {{"$keywords", Quoted(target.scientific_name)},
                   {"type", image_type},
                   {"$orderby", "search_api_relevance desc"}},
                  "type",
                  "Image"},
  };
}

std::string PageUrl(const SearchQuery& query, int64_t offset) {
  auto params = query.params;
  params.emplace_back("$top", std::to_string(kSearchPageSize));
  params.emplace_back("$skip", std::to_string(offset));
  return query.endpoint + "?" + FormQuery(std::move(params));
}

Result<SearchPage> ParseSearchPage(std::string_view body, const SearchQuery& query,
                                   std::string_view where) {
  const SearchJson doc = SearchJson::parse(body, nullptr, /*allow_exceptions=*/false);
  auto broken = [&](const std::string& what) {
    return std::unexpected(Abort(ErrorKind::kData, where, "the response " + what));
  };
  if (doc.is_discarded()) return broken("is not JSON");
  if (!doc.is_object()) return broken("is not a JSON object");
  const auto list = doc.find("list");
  const auto meta = doc.find("_meta");
  if (list == doc.end() || !list->is_array()) return broken("has no array 'list'");
  if (meta == doc.end() || !meta->is_object()) return broken("has no object '_meta'");
  const auto total = meta->find("total");
  if (total == meta->end() || !total->is_number_integer() || total->get<int64_t>() < 0) {
    return broken("has no integer _meta.total >= 0");
  }
  SearchPage page;
  page.total = total->get<int64_t>();
  if (page.total > 0 && !FacetConfirms(*meta, query, page.total)) {
    return broken("does not confirm the filter: _meta.facets." + query.facet +
                  " holds no entry for the requested value with count " +
                  std::to_string(page.total));
  }
  for (const SearchJson& item : *list) {
    if (!item.is_string()) return broken("has a result that is not an HTML string");
    page.cards.push_back(item.get<std::string>());
  }
  return page;
}

Result<std::vector<Candidate>> SearchTarget(UsfwsFetcher& fetcher, const Target& target,
                                            int max_images) {
  std::vector<Candidate> merged;
  std::map<std::string, std::size_t> index;
  for (const SearchQuery& query : QueriesFor(target)) {
    const std::string where = "usfws target '" + target.code + "', search " + query.label;
    DATABOX_ASSIGN_OR_RETURN(auto cards, RunQuery(fetcher, query, max_images, where));
    DATABOX_RETURN_IF_ERROR(MergeCards(query, cards, merged, index, max_images, where));
  }
  return merged;
}

}  // namespace databox::source
