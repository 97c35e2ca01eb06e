#include "load/source_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include "common/flock_holders.h"

namespace databox::load {
namespace {

//! Who holds the lock of `fd`: "pid 123 since <time>". The pid comes from the kernel
//! (FlockHolders); the holder writes its text just after it locks, so the text is awaited
//! briefly and used only when it names that pid (an empty or a previous holder's text is not).
std::string Holder(int fd) {
  const std::vector<pid_t> pids = FlockHolders(fd);
  if (pids.empty()) return LockFileText(fd);  // released meanwhile, or /proc/locks unreadable
  const std::string prefix = "pid " + std::to_string(pids.front()) + " ";
  for (int attempt = 0; attempt < 50; ++attempt) {
    const std::string text = LockFileText(fd);
    if (text.starts_with(prefix)) return text;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return prefix + "since an unknown time";
}

}  // namespace

std::filesystem::path SourceLocksDir(const std::filesystem::path& state_dir) {
  return state_dir / "locks";
}

Result<SourceLock> SourceLock::Acquire(const std::filesystem::path& locks_dir,
                                       const std::string& source) {
  std::error_code ec;
  std::filesystem::create_directories(locks_dir, ec);
  if (ec) {
    return MakeError(ErrorKind::kIo,
                     "cannot create the lock folder " + locks_dir.string() + ": " + ec.message());
  }
  const std::filesystem::path path = locks_dir / (source + ".lock");
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) {
    return MakeError(ErrorKind::kIo,
                     "cannot open the lock file " + path.string() + ": " + std::strerror(errno));
  }
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    const int error = errno;
    const std::string holder = Holder(fd);
    ::close(fd);
    if (error == EWOULDBLOCK) {
      return MakeError(ErrorKind::kConflict,
                       "source " + source + " is being loaded by another databox process" +
                           (holder.empty() ? "" : " (" + holder + ")") +
                           "; wait for it to finish, or stop that process (its lock is " +
                           path.string() + ")");
    }
    return MakeError(ErrorKind::kIo, "cannot lock " + path.string() + ": " + std::strerror(error));
  }
  SourceLock lock(fd);
  // Who holds it, for the message another process prints; the lock works without it.
  WriteLockFileText(fd);
  return lock;
}

SourceLock::SourceLock(SourceLock&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}

SourceLock& SourceLock::operator=(SourceLock&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(other.fd_, -1);
  }
  return *this;
}

SourceLock::~SourceLock() {
  if (fd_ >= 0) ::close(fd_);  // closing the last descriptor releases the flock
}

}  // namespace databox::load
