// What a load of the USFWS image source needs from the registry and the command line: the
// caller's request (targets and run options), and the retry clock of a replayed run.
#pragma once

#include <chrono>
#include <mutex>
#include <string>
#include <vector>

#include "http/retry.h"
#include "registry/model.h"
#include "sources/usfws/targets.h"
#include "sources/usfws/usfws_run.h"

namespace databox::source {

//! The caller's part of a targeted load (`databox run usfws --targets FILE ...`).
struct TargetedRequest {
  std::vector<Target> targets;
  UsfwsRunOptions options;
};

//! Run options from [source.targets] (max_images_per_target, request_max_attempts,
//! detail_workers, contact); run id and loaded_at are the caller's.
UsfwsRunOptions UsfwsOptionsFromRegistry(const registry::TargetSettings& settings);

//! The retry clock of a replayed run: a recording answers at once, so waiting would only slow
//! the run down. Waits are recorded instead of slept (and reported, so a replay still shows the
//! schedule a live run would follow). Thread-safe.
class RecordedWaits final : public http::RetryTiming {
 public:
  std::chrono::steady_clock::time_point Now() override { return std::chrono::steady_clock::now(); }
  std::chrono::system_clock::time_point WallNow() override {
    return std::chrono::system_clock::now();
  }
  void SleepFor(std::chrono::milliseconds duration) override;
  double Random() override { return 0; }

  //! "1, 2, 4, 8, 16 s" (in order of recording), or "" when nothing was waited for.
  std::string Summary() const;

 private:
  mutable std::mutex mutex_;
  std::vector<std::chrono::milliseconds> waits_;  //!< guarded by mutex_
};

}  // namespace databox::source
