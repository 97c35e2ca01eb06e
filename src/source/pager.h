// Pagination: which request follows a page, and when a resource's pages end.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "common/error.h"
#include "registry/model.h"
#include "source/records.h"

namespace databox::source {

//! The request after a page: either query parameters over the resource's first URL, or a full
//! URL taken from the response (cursor next links).
struct NextPage {
  std::map<std::string, std::string> params;  //!< pagination parameters of the next request
  std::optional<std::string> url;             //!< set: request this URL as given
};

//! Walks the pages of one request sequence (one window chunk). Stops as docs/registry.md says:
//! offset_limit on an empty or short page, offset >= total, or the end flag; page_number on an
//! empty or short page or after num_pages pages; cursor when no next value is present. The
//! max_records cap is the caller's (it spans chunks). A cursor that repeats is a kData error.
class Pager {
 public:
  explicit Pager(const registry::Pagination& pagination);

  //! Pagination parameters of the first request.
  std::map<std::string, std::string> FirstParams() const;

  //! The next request after a page with `page_records` records (before any cap), whose parsed
  //! body is `doc` (nullptr for text formats), or nullopt when the sequence is complete.
  Result<std::optional<NextPage>> Advance(int64_t page_records, const Json* doc);

 private:
  registry::Pagination p_;
  int64_t offset_ = 0;             //!< offset_limit: offset of the last requested page
  int64_t page_ = 0;               //!< page_number: number of the last requested page
  int64_t pages_seen_ = 0;         //!< pages returned in this sequence
  std::set<std::string> cursors_;  //!< cursor: values already followed
};

}  // namespace databox::source
