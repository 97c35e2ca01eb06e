// The three fws.gov searches of one target, their paging and the rules that abort a run
// (docs/sources.md, "usfws": searches), and the merge of their cards into candidates.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/error.h"
#include "sources/usfws/targets.h"
#include "sources/usfws/usfws_card.h"
#include "sources/usfws/usfws_http.h"

namespace databox::source {

inline constexpr std::string_view kFwsOrigin = "https://www.fws.gov";
inline constexpr std::string_view kSearchImagesEndpoint =
    "https://www.fws.gov/fws_search/search_images";
inline constexpr std::string_view kGlobalSearchEndpoint =
    "https://www.fws.gov/fws_search/global_search";
inline constexpr int64_t kSearchPageSize = 100;
//! Candidates over all targets, and distinct safe detail URLs, beyond which a run aborts.
inline constexpr std::size_t kMaxRunCandidates = 10'000;

//! One of the three searches of a target.
struct SearchQuery {
  std::string label;     //!< species_facet | exact_common_name | exact_scientific_name
  std::string endpoint;  //!< kSearchImagesEndpoint or kGlobalSearchEndpoint
  std::vector<std::pair<std::string, std::string>> params;  //!< without $top and $skip
  std::string facet;        //!< _meta.facets.<facet> must confirm the filter
  std::string facet_value;  //!< ... with this `filter`
};

//! The searches of `target`, in the order they run.
std::vector<SearchQuery> QueriesFor(const Target& target);

//! The URL of the page at `offset` (query keys in alphabetical order, form-encoded).
std::string PageUrl(const SearchQuery& query, int64_t offset);

//! One search response.
struct SearchPage {
  int64_t total = 0;               //!< _meta.total
  std::vector<std::string> cards;  //!< the HTML strings of `list`
};

//! Reads and checks one response: a JSON object with array `list` of strings and object `_meta`
//! with integer `total` >= 0; when total > 0, _meta.facets.<facet> must hold an entry whose
//! `filter` is query.facet_value and whose `count` is total. kData naming `where` otherwise.
Result<SearchPage> ParseSearchPage(std::string_view body, const SearchQuery& query,
                                   std::string_view where);

//! A candidate image of one target: the first card seen for its page URL, with every search
//! that found it.
struct Candidate {
  Card card;
  std::set<std::string> labels;     //!< search labels that found it
  std::set<std::string> endpoints;  //!< endpoints that found it
};

//! Runs the three searches of `target` page by page and merges their cards by source page URL
//! (the first card's fields win). Aborts (kData, or kNetwork when retries ran out) on a failed
//! request or a broken rule: `total` changing between pages or over `max_images`, more cards
//! than `total`, an empty page before `total`, more than `max_images` distinct candidates.
//! Messages name the target and the search, never a URL.
Result<std::vector<Candidate>> SearchTarget(UsfwsFetcher& fetcher, const Target& target,
                                            int max_images);

}  // namespace databox::source
