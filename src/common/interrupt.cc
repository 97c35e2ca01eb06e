#include "common/interrupt.h"

#include <signal.h>

#include <atomic>
#include <csignal>
#include <string>

namespace databox {
namespace {

std::atomic<int> g_signal{0};
static_assert(std::atomic<int>::is_always_lock_free, "the handler's store must be lock-free");

void RecordSignal(int signal_number) { g_signal.store(signal_number, std::memory_order_relaxed); }

}  // namespace

void InstallInterruptHandlers() {
  struct sigaction action = {};
  action.sa_handler = RecordSignal;
  sigemptyset(&action.sa_mask);
  // No SA_RESTART: a blocking read returns EINTR (libcurl retries it); SA_RESETHAND: the
  // second Ctrl-C is not caught.
  action.sa_flags = SA_RESETHAND;
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

int InterruptSignal() { return g_signal.load(std::memory_order_relaxed); }

Status CheckInterrupted(std::string_view where) {
  const int signal_number = InterruptSignal();
  if (signal_number == 0) return Ok();
  return MakeError(ErrorKind::kInternal,
                   std::string(where) + ": interrupted by " + SignalName(signal_number));
}

bool IsInterruption(const Error& /*error*/) { return InterruptSignal() != 0; }

std::string SignalName(int signal_number) {
  if (signal_number == SIGINT) return "SIGINT";
  if (signal_number == SIGTERM) return "SIGTERM";
  return "signal " + std::to_string(signal_number);
}

void ClearInterruptForTest() { g_signal.store(0, std::memory_order_relaxed); }

}  // namespace databox
