#include "serve/refresh_scheduler.h"

#include <chrono>
#include <fstream>

#include "common/clock.h"
#include "common/process.h"

namespace databox::serve {
namespace {

using std::chrono::steady_clock;
using std::chrono::system_clock;

constexpr std::chrono::milliseconds kTickPoll{50};
constexpr std::chrono::seconds kStopGrace{10};

std::string Iso(SystemTime at) {
  return MillisIso(
      std::chrono::duration_cast<std::chrono::milliseconds>(at.time_since_epoch()).count());
}

}  // namespace

RefreshScheduler::RefreshScheduler(ServeSchedule schedule, std::vector<std::string> argv,
                                   std::filesystem::path log_path,
                                   const volatile std::sig_atomic_t& stop,
                                   std::function<void(std::string_view line)> print)
    : schedule_(std::move(schedule)),
      argv_(std::move(argv)),
      log_path_(std::move(log_path)),
      stop_(stop),
      print_(std::move(print)) {
  state_.schedule = schedule_.Describe();
}

RefreshScheduler::~RefreshScheduler() {
  if (ticker_.joinable()) ticker_.join();
}

void RefreshScheduler::Start() {
  ticker_ = std::thread([this] { Loop(); });
}

void RefreshScheduler::Join() {
  if (ticker_.joinable()) ticker_.join();
}

report::ScheduleState RefreshScheduler::State() const {
  std::lock_guard lock(mutex_);
  return state_;
}

void RefreshScheduler::Log(const std::string& line) {
  const std::string stamped = NowIso() + " " + line + "\n";
  std::lock_guard lock(mutex_);
  print_(stamped);
  std::ofstream(log_path_, std::ios::app) << stamped;
}

void RefreshScheduler::Loop() {
  const SystemTime start = system_clock::now();
  SystemTime next = schedule_.NextRun(start, start);
  {
    std::lock_guard lock(mutex_);
    state_.next_run_at = Iso(next);
  }
  Log("scheduled refresh " + schedule_.Describe() + "; next run at " + Iso(next) +
      "; log: " + log_path_.string());
  while (stop_ == 0) {
    if (system_clock::now() < next) {
      std::this_thread::sleep_for(kTickPoll);
      continue;
    }
    next = schedule_.NextRun(start, system_clock::now());
    {
      std::lock_guard lock(mutex_);
      state_.next_run_at = Iso(next);
    }
    OnRunTime();
  }
  if (refresh_.joinable()) refresh_.join();  // the child sees the stop flag too
}

void RefreshScheduler::OnRunTime() {
  if (running_) {
    std::string since;
    {
      std::lock_guard lock(mutex_);
      ++state_.skipped;
      since = state_.running_since;
    }
    Log("scheduled refresh skipped: the one started at " + since + " is still running");
    return;
  }
  if (refresh_.joinable()) refresh_.join();  // ended: only its thread is left
  running_ = true;
  const steady_clock::time_point began = steady_clock::now();
  {
    std::lock_guard lock(mutex_);
    ++state_.started;
    state_.running_since = NowIso();
  }
  Log("scheduled refresh started");
  refresh_ = std::thread([this, began] { RunRefresh(began); });
}

void RefreshScheduler::RunRefresh(steady_clock::time_point began) {
  // This thread waits for the child, so PR_SET_PDEATHSIG (tied to it) holds while it runs.
  ProcessSpec spec;
  spec.argv = argv_;
  spec.cwd = std::filesystem::current_path();
  spec.log_path = log_path_;
  spec.deadline = steady_clock::time_point::max();
  spec.kill_grace = kStopGrace;
  spec.what = "scheduled refresh";
  spec.stop = [this] { return stop_ != 0; };
  auto outcome = RunProcess(spec);
  const auto millis =
      std::chrono::duration_cast<std::chrono::milliseconds>(steady_clock::now() - began).count();
  {
    std::lock_guard lock(mutex_);
    ++state_.finished;
    state_.running_since.clear();
    if (outcome) state_.last_exit_code = outcome->exit_code;
  }
  if (!outcome) {
    Log("scheduled refresh could not start: " + outcome.error().message);
  } else {
    Log("scheduled refresh " + std::string(outcome->stopped ? "stopped" : "finished") + ": exit " +
        std::to_string(outcome->exit_code) + " after " + FormatDuration(millis));
  }
  running_ = false;
}

}  // namespace databox::serve
