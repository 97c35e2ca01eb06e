// The two tables of the USFWS image source (docs/sources.md, "usfws": tables): their
// declarations (keys, merge, a type for every column) and the rows of one run.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "registry/model.h"
#include "source/records.h"
#include "sources/usfws/targets.h"
#include "sources/usfws/usfws_detail.h"
#include "sources/usfws/usfws_search.h"

namespace databox::source {

inline constexpr std::string_view kRunsTable = "image_search_runs";
inline constexpr std::string_view kRecordsTable = "image_records";

//! image_search_runs (key run_id) and image_records (key run_id, species_code,
//! source_page_url): write disposition merge, every column typed (text, bigint, timestamp),
//! NOT NULL only on the keys; columns in the documented order (Resource::column_order).
std::vector<registry::Resource> UsfwsResources();

//! What the run row says besides its counts.
struct RunFacts {
  std::string run_id;
  std::string loaded_at;     //!< ISO-8601 UTC
  std::string started_at;    //!< ISO-8601 UTC, wall clock
  std::string completed_at;  //!< ISO-8601 UTC, wall clock
  int64_t target_count = 0;
  int64_t record_count = 0;
  int max_images_per_target = 0;
  int request_max_attempts = 0;
  int detail_workers = 0;
};

//! The one row of image_search_runs for a run that finished.
Json RunRow(const RunFacts& facts);

//! The detail of a candidate: its status and, when the page was read, its fields.
struct DetailOutcome {
  DetailStatus status = DetailStatus::kSkippedUnsafeUrl;
  std::optional<DetailFields> fields;  //!< set when the page was fetched and read
};

//! One row of image_records, columns in the documented order.
Json RecordRow(const std::string& run_id, const std::string& loaded_at, const Target& target,
               const Candidate& candidate, const DetailOutcome& detail);

}  // namespace databox::source
