#include "load/workspace_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <system_error>
#include <utility>
#include <vector>

#include "common/flock_holders.h"

namespace databox::load {
namespace {

//! "pid 123 refresh since <time>" or "pid 123, pid 456" (shared holders write nothing, and the
//! text of an earlier holder is not used).
std::string Holders(int fd) {
  const std::vector<pid_t> pids = FlockHolders(fd);
  const std::string text = LockFileText(fd);
  std::string named;
  for (const pid_t pid : pids) {
    const std::string pid_text = "pid " + std::to_string(pid);
    named += (named.empty() ? "" : ", ") + (text.starts_with(pid_text + " ") ? text : pid_text);
  }
  return named.empty() ? "a process that has just ended; retry" : named;
}

}  // namespace

Result<WorkspaceLock> WorkspaceLock::Acquire(const std::filesystem::path& state_dir,
                                             WorkspaceUse use, const std::string& command) {
  const std::filesystem::path dir = state_dir / "locks";
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    return MakeError(ErrorKind::kIo,
                     "cannot create the lock folder " + dir.string() + ": " + ec.message());
  }
  const std::filesystem::path path = dir / "workspace.lock";
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) {
    return MakeError(ErrorKind::kIo,
                     "cannot open the lock file " + path.string() + ": " + std::strerror(errno));
  }
  const bool exclusive = use == WorkspaceUse::kExclusive;
  if (::flock(fd, (exclusive ? LOCK_EX : LOCK_SH) | LOCK_NB) != 0) {
    const int error = errno;
    const std::string holders = error == EWOULDBLOCK ? Holders(fd) : "";
    ::close(fd);
    if (error == EWOULDBLOCK) {
      return MakeError(ErrorKind::kConflict,
                       "the workspace " + state_dir.string() +
                           " is in use by another databox process (" + holders +
                           "); one refresh or transform per workspace at a time, and no run while "
                           "one works; wait for it to finish and retry (its lock is " +
                           path.string() + ")");
    }
    return MakeError(ErrorKind::kIo, "cannot lock " + path.string() + ": " + std::strerror(error));
  }
  WorkspaceLock lock(fd);
  if (exclusive) {
    // Who holds it, for the message another process prints; the lock works without it.
    WriteLockFileText(fd, command);
  }
  return lock;
}

WorkspaceLock::WorkspaceLock(WorkspaceLock&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}

WorkspaceLock& WorkspaceLock::operator=(WorkspaceLock&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(other.fd_, -1);
  }
  return *this;
}

WorkspaceLock::~WorkspaceLock() {
  if (fd_ >= 0) ::close(fd_);  // closing the last descriptor releases the flock
}

}  // namespace databox::load
