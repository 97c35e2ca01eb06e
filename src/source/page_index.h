// The raw pages of one resource in a load package: one file per response body plus index.json,
// so the records can be produced again from disk (`databox run --resume`) without fetching.
// Layout and fields: docs/sources.md.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "common/error.h"

namespace databox::source {

//! A request whose non-2xx answer was skipped and reported (never silently dropped).
struct SkippedRequest {
  std::string url;                           //!< redacted request URL
  long status = 0;                           //!< HTTP status of the answer
  std::map<std::string, std::string> chunk;  //!< window values of the request
};

//! One stored response.
struct PageEntry {
  std::string file;                          //!< body file name inside the resource folder
  std::string url;                           //!< redacted request URL
  long status = 0;                           //!< HTTP status (2xx)
  int64_t page = 1;                          //!< 1-based page number within its chunk
  std::map<std::string, std::string> chunk;  //!< window values of the request ({} = none)
  int64_t records = 0;  //!< records kept from this page (after the max_records cap)
  int64_t query = 0;    //!< which query of the resource's plan (query_plan.h) fetched it
};

//! index.json of one resource folder.
struct PageIndex {
  std::string source;
  std::string resource;
  std::string format;  //!< json, rdb, csv, tsv
  std::string load_id;
  std::chrono::system_clock::time_point loaded_at;
  int64_t requests = 0;  //!< HTTP requests sent, including skipped ones
  std::vector<PageEntry> pages;
  std::vector<SkippedRequest> skipped;
};

//! "index.json".
inline constexpr char kIndexFileName[] = "index.json";

//! Writes index.json into `folder` atomically (temporary file, then rename).
Status WritePageIndex(const std::filesystem::path& folder, const PageIndex& index);
//! Reads index.json of `folder`; kNotFound when absent (an extraction that did not finish).
Result<PageIndex> ReadPageIndex(const std::filesystem::path& folder);

//! Writes `bytes` to `path` (kIo error naming the path).
Status WriteFileBytes(const std::filesystem::path& path, std::string_view bytes);
//! Reads a whole file (kIo / kNotFound error naming the path).
Result<std::string> ReadFileBytes(const std::filesystem::path& path);

}  // namespace databox::source
