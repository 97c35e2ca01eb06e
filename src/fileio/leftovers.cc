#include "fileio/leftovers.h"

#include <signal.h>

#include <cerrno>
#include <charconv>
#include <mutex>
#include <set>
#include <string>
#include <system_error>
#include <utility>

namespace databox::fileio {
namespace {

//! True when no process has `pid` (kill(pid, 0) answers ESRCH). A pid owned by another user
//! (EPERM) counts as alive.
bool ProcessIsGone(long pid) { return ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH; }

}  // namespace

long PidOfLeftover(std::string_view name, std::string_view prefix) {
  if (!name.starts_with(prefix)) return 0;
  const std::string_view rest = name.substr(prefix.size());
  long pid = 0;
  const auto [end, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), pid);
  if (ec != std::errc() || pid <= 0) return 0;
  // The pid ends the name or is followed by a separator: "-" or "." (e.g. a ".wal" beside it).
  if (end != rest.data() + rest.size() && *end != '-' && *end != '.') return 0;
  return pid;
}

int RemoveLeftoversOfDeadProcesses(const std::filesystem::path& dir, std::string_view prefix) {
  int removed = 0;
  std::error_code ec;
  std::filesystem::directory_iterator it(dir, ec);
  if (ec) return 0;
  for (const auto& entry : it) {
    const long pid = PidOfLeftover(entry.path().filename().string(), prefix);
    if (pid == 0 || !ProcessIsGone(pid)) continue;
    std::error_code ignored;
    if (std::filesystem::remove_all(entry.path(), ignored) > 0) ++removed;
  }
  return removed;
}

void RemoveLeftoversOfDeadProcessesOnce(const std::filesystem::path& dir, std::string_view prefix) {
  static std::mutex mutex;
  static std::set<std::pair<std::string, std::string>> done;
  {
    std::lock_guard lock(mutex);
    if (!done.emplace(dir.string(), std::string(prefix)).second) return;
  }
  RemoveLeftoversOfDeadProcesses(dir, prefix);
}

}  // namespace databox::fileio
