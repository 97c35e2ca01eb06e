#include "sources/usfws/usfws_detail_pool.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <optional>
#include <thread>

namespace databox::source {
namespace {

//! What the workers share.
class Pool {
 public:
  Pool(const std::vector<std::string>& urls, const RequestPolicy& policy, http::RetryTiming& timing)
      : urls_(urls), policy_(policy), timing_(timing) {}

  void Work(http::Transport& transport) {
    UsfwsFetcher fetcher(transport, policy_, timing_);
    while (!aborted_.load()) {
      const std::size_t i = next_.fetch_add(1);
      if (i >= urls_.size()) return;
      auto outcome = FetchOne(fetcher, i);
      std::lock_guard lock(mutex_);
      if (!outcome) {
        Abort(outcome.error());
      } else if (outcome->status == DetailStatus::kUnavailableAfterRetries &&
                 ++unavailable_ > kMaxUnavailableDetails) {
        Abort(Error{ErrorKind::kNetwork,
                    "usfws: more than " + std::to_string(kMaxUnavailableDetails) +
                        " media pages stayed unavailable after retries; the run was aborted, "
                        "nothing is loaded (the site may be failing: retry later)"});
      } else {
        results_[urls_[i]] = std::move(*outcome);
      }
    }
  }

  void Abort(Error error) {
    if (!error_) error_ = std::move(error);
    aborted_ = true;
  }

  Result<std::map<std::string, DetailOutcome>> Finish() {
    if (error_) return std::unexpected(*error_);
    return std::move(results_);
  }

 private:
  Result<DetailOutcome> FetchOne(UsfwsFetcher& fetcher, std::size_t i) {
    const std::string where =
        "usfws media page " + std::to_string(i + 1) + " of " + std::to_string(urls_.size());
    auto body = fetcher.Get(urls_[i], kDetailBodyLimit);
    if (!body && body.error().failure == FetchFailure::kRetriesExhausted) {
      return DetailOutcome{DetailStatus::kUnavailableAfterRetries, std::nullopt};
    }
    if (!body) {
      return MakeError(ErrorKind::kData, where + ": request failed (" + body.error().reason +
                                             "); the run was aborted, nothing is loaded");
    }
    auto fields = ParseDetailPage(*body);
    if (!fields) {
      return MakeError(fields.error().kind, where + ": " + fields.error().message +
                                                "; the run was aborted, nothing is loaded");
    }
    const DetailStatus status = fields->status;
    return DetailOutcome{status, std::move(*fields)};
  }

  const std::vector<std::string>& urls_;
  const RequestPolicy& policy_;
  http::RetryTiming& timing_;
  std::atomic<std::size_t> next_{0};
  std::atomic<bool> aborted_{false};
  std::mutex mutex_;
  int unavailable_ = 0;                           //!< guarded by mutex_
  std::optional<Error> error_;                    //!< the first abort; guarded by mutex_
  std::map<std::string, DetailOutcome> results_;  //!< guarded by mutex_
};

}  // namespace

Result<std::map<std::string, DetailOutcome>> FetchDetails(const std::vector<std::string>& urls,
                                                          int workers,
                                                          const TransportMaker& make_transport,
                                                          const RequestPolicy& policy,
                                                          http::RetryTiming& timing) {
  const int count = std::clamp<int>(static_cast<int>(urls.size()), 0, std::max(1, workers));
  std::vector<std::shared_ptr<http::Transport>> transports;
  for (int i = 0; i < count; ++i) {
    DATABOX_ASSIGN_OR_RETURN(auto transport, make_transport());
    transports.push_back(std::move(transport));
  }
  Pool pool(urls, policy, timing);
  std::vector<std::thread> threads;
  for (auto& transport : transports) {
    threads.emplace_back([&pool, &transport] { pool.Work(*transport); });
  }
  for (std::thread& thread : threads) thread.join();
  return pool.Finish();
}

}  // namespace databox::source
