// The USFWS image source as a whole (docs/sources.md, "usfws"): for caller-supplied target
// species, the three fws.gov searches of each target, then every distinct safe media page once,
// giving the rows of image_search_runs and image_records. All or nothing: any abort leaves no
// rows at all, and the run row exists only when everything finished.
//
// Construction checks the inputs and does no I/O; the first Rows() call runs the whole search
// and keeps its outcome, so both tables come from one snapshot.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/error.h"
#include "http/retry.h"
#include "source/records.h"
#include "sources/usfws/targets.h"
#include "sources/usfws/usfws_detail_pool.h"

namespace databox::source {

struct UsfwsRunOptions {
  int max_images_per_target = 500;       //!< 1..500
  int request_max_attempts = 6;          //!< 1..6
  int detail_workers = 3;                //!< 1..4
  std::optional<std::string> run_id;     //!< default: DefaultRunId(loaded_at, targets)
  std::optional<std::string> loaded_at;  //!< ISO-8601 UTC; default: now
  std::string contact;                   //!< named in the User-Agent
};

//! kConfig naming the first option out of range, an empty run id, or a loaded_at that is not
//! an ISO-8601 UTC time (YYYY-MM-DDTHH:MM:SS[.ffffff] and Z or +00:00).
Status ValidateRunOptions(const UsfwsRunOptions& options);

//! Lower-case hex SHA-256 of "{loaded_at}|{identity}", identity being the Python repr of the
//! list of (species_code, scientific_name) pairs in input order:
//! "[('berhum', 'Amazilia beryllina')]".
std::string DefaultRunId(std::string_view loaded_at, const std::vector<Target>& targets);

//! The User-Agent of live requests: names Databox and, when set, the operator's contact.
std::string UsfwsUserAgent(std::string_view contact);

//! The rows of one finished run.
struct UsfwsRows {
  std::vector<Json> runs;     //!< image_search_runs: exactly one row
  std::vector<Json> records;  //!< image_records, sorted by species_code, then source_page_url
};

class UsfwsImageSearch {
 public:
  //! Checks options and targets (values, duplicates, at most 500); an empty list is accepted
  //! here and refused by Rows(). `timing` (not owned; thread-safe) replaces the real sleep and
  //! clock of the retries when set.
  static Result<UsfwsImageSearch> Make(std::vector<Target> targets, UsfwsRunOptions options,
                                       TransportMaker make_transport,
                                       http::RetryTiming* timing = nullptr);

  const std::string& run_id() const { return state_->run_id; }
  const std::string& loaded_at() const { return state_->loaded_at; }

  //! Runs the search on the first call and returns its rows (or its abort) on every call.
  Result<const UsfwsRows*> Rows();

 private:
  struct State {
    std::vector<Target> targets;
    UsfwsRunOptions options;
    TransportMaker make_transport;
    http::RetryTiming* timing = nullptr;
    std::string run_id;
    std::string loaded_at;
    std::optional<Result<UsfwsRows>> outcome;  //!< set by the first Rows()
  };
  explicit UsfwsImageSearch(std::unique_ptr<State> state) : state_(std::move(state)) {}
  Result<UsfwsRows> Run();

  std::unique_ptr<State> state_;
};

}  // namespace databox::source
