// What extraction and the feed did to one resource of a rest_json source.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "source/page_index.h"

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

}  // namespace databox::source
