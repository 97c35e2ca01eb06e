// The scheduled refresh of `databox serve --every/--at`: a thread that waits for each run time
// of a ServeSchedule and starts the refresh as a child process (this binary, `--config REGISTRY
// refresh`: its own process group, killed if the server dies; common/process.h), one at a time: a
// run time that comes while the previous refresh still runs is skipped. Every start, end (exit
// code, duration) and skip is a line printed (through the caller's writer) and in the log file,
// which also receives the child's output. Once the stop flag is set, a running child gets SIGTERM
// (its group), then SIGKILL after a grace period, and Join() returns when it has ended.
#pragma once

#include <atomic>
#include <csignal>
#include <filesystem>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "report/report_model.h"
#include "serve/serve_schedule.h"

namespace databox::serve {

class RefreshScheduler {
 public:
  //! `argv` is the refresh command line (argv[0] an absolute path); `log_path` is appended to;
  //! `print` writes each log line (with its newline) where the user sees it.
  RefreshScheduler(ServeSchedule schedule, std::vector<std::string> argv,
                   std::filesystem::path log_path, const volatile std::sig_atomic_t& stop,
                   std::function<void(std::string_view line)> print);
  RefreshScheduler(const RefreshScheduler&) = delete;
  RefreshScheduler& operator=(const RefreshScheduler&) = delete;
  ~RefreshScheduler();

  //! Starts waiting for the first run time.
  void Start();
  //! Waits until the thread has seen the stop flag and no refresh runs. Call after setting it.
  void Join();

  //! The schedule, the next run time and the counts, as the page and /schedule.json show them.
  report::ScheduleState State() const;

 private:
  void Loop();
  void OnRunTime();
  void RunRefresh(std::chrono::steady_clock::time_point began);
  void Log(const std::string& line);

  const ServeSchedule schedule_;
  const std::vector<std::string> argv_;
  const std::filesystem::path log_path_;
  const volatile std::sig_atomic_t& stop_;
  const std::function<void(std::string_view line)> print_;

  mutable std::mutex mutex_;  //!< guards state_ and the log lines
  report::ScheduleState state_;
  std::atomic<bool> running_{false};
  std::thread ticker_;
  std::thread refresh_;  //!< only the ticker starts and joins it
};

}  // namespace databox::serve
