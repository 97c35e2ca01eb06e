// JSON response pages read with simdjson, for the two passes a load makes over every page of a
// rest_json resource: extraction (how many records the page holds, and the rest of the page for
// pagination and the error path) and the feed (each record handed over as parsed). nlohmann's
// reading (ParseUntrustedJson, SelectJsonRecords) stays the reference: a page simdjson cannot
// read exactly as it would is left to it (nullopt): text that is not JSON, an integer beyond 64
// bits, a number beyond a double, nesting deeper than kFastPathDepth, a key repeated in the
// part of the page kept as nlohmann JSON. Its errors and values are then what they always were.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "common/error.h"
#include "source/records.h"

namespace simdjson::dom {
class element;
class parser;
}  // namespace simdjson::dom

namespace databox::source {

//! Deepest nesting read by simdjson; deeper pages go to nlohmann, which refuses beyond
//! kMaxJsonDepth with the place it occurs.
inline constexpr std::size_t kFastPathDepth = 256;

//! Receives one record of a page, valid during the call.
using ElementSink = std::function<Status(const simdjson::dom::element& record)>;

//! What extraction needs of a page.
struct PageOutline {
  int64_t records = 0;  //!< records SelectJsonRecords would feed (no limit)
  Json rest;            //!< the page with the node at records_path replaced by an empty array
};

//! Reads pages one after another (the parser's buffers are reused). Not thread-safe.
class JsonPageReader {
 public:
  JsonPageReader();
  ~JsonPageReader();
  JsonPageReader(const JsonPageReader&) = delete;
  JsonPageReader& operator=(const JsonPageReader&) = delete;

  //! The record count and the rest of `body`; nullopt when nlohmann must read the page (above),
  //! or records_path is "" or "$" (the records are the page: there is no rest).
  std::optional<PageOutline> Outline(std::string_view body, const std::string& records_path);

  //! Feeds the records SelectJsonRecords would feed from `body` (at most `limit`) to `sink`.
  //! nullopt when nlohmann must read the page (nothing was fed then); an error from the sink
  //! stops the feed and is returned.
  Result<std::optional<int64_t>> ForEachRecord(std::string_view body,
                                               const std::string& records_path, int64_t limit,
                                               const ElementSink& sink);

 private:
  std::unique_ptr<simdjson::dom::parser> parser_;
};

}  // namespace databox::source
