#include "common/file_lock.h"

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

namespace databox {
namespace {

//! How long a refused rival waits for a lone holder's text: it writes it just after it locks.
constexpr int kTextAttempts = 50;
constexpr auto kTextPause = std::chrono::milliseconds(10);

//! How often a refused flock is tried again when the kernel shows no holder: the holder ended
//! between the refusal and the look at the lock table, so the lock is free to take.
constexpr int kEndedHolderRetries = 3;

//! Who holds the lock of `fd`, given the holders' pids from the kernel (FlockHolders); a holder's
//! text is used only when it names that pid (an empty or a previous holder's text is not). A lone
//! holder may not have written its text yet, so it is awaited briefly.
std::string Holders(int fd, const std::vector<pid_t>& pids) {
  if (pids.empty()) return "a process that has just ended; retry";
  std::string text = LockFileText(fd);
  if (pids.size() == 1) {
    const std::string prefix = "pid " + std::to_string(pids.front()) + " ";
    for (int attempt = 0; attempt < kTextAttempts && !text.starts_with(prefix); ++attempt) {
      std::this_thread::sleep_for(kTextPause);
      text = LockFileText(fd);
    }
  }
  std::string named;
  for (const pid_t pid : pids) {
    const std::string pid_text = "pid " + std::to_string(pid);
    named += (named.empty() ? "" : ", ") + (text.starts_with(pid_text + " ") ? text : pid_text);
  }
  return named;
}

//! flock(2) without waiting; a refusal whose holder has already ended is tried again. Returns 0
//! when locked, else the errno, with `holders` filled in on EWOULDBLOCK.
int LockOrName(int fd, LockMode mode, std::string& holders) {
  const int operation = (mode == LockMode::kExclusive ? LOCK_EX : LOCK_SH) | LOCK_NB;
  for (int attempt = 0;; ++attempt) {
    if (::flock(fd, operation) == 0) return 0;
    const int error = errno;
    if (error != EWOULDBLOCK) return error;
    const std::vector<pid_t> pids = FlockHolders(fd);
    if (!pids.empty() || attempt == kEndedHolderRetries) {
      holders = Holders(fd, pids);
      return error;
    }
  }
}

}  // namespace

Result<LockAttempt> FileLock::Try(const std::filesystem::path& path, LockMode mode,
                                  const std::string& what) {
  std::error_code ec;
  std::filesystem::create_directories(path.parent_path(), ec);
  if (ec) {
    return MakeError(ErrorKind::kIo, "cannot create the lock folder " +
                                         path.parent_path().string() + ": " + ec.message());
  }
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) {
    return MakeError(ErrorKind::kIo,
                     "cannot open the lock file " + path.string() + ": " + std::strerror(errno));
  }
  LockAttempt refused;
  if (const int error = LockOrName(fd, mode, refused.holders); error != 0) {
    ::close(fd);
    if (error == EWOULDBLOCK) return refused;
    return MakeError(ErrorKind::kIo, "cannot lock " + path.string() + ": " + std::strerror(error));
  }
  LockAttempt taken;
  taken.lock.emplace(FileLock(fd));
  // Who holds it, for the message a rival prints; the lock works without it. Shared holders
  // overwrite each other's text; a rival then names the others by pid alone.
  WriteLockFileText(fd, what);
  return taken;
}

FileLock::FileLock(FileLock&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}

FileLock& FileLock::operator=(FileLock&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(other.fd_, -1);
  }
  return *this;
}

FileLock::~FileLock() {
  if (fd_ >= 0) ::close(fd_);  // closing the last descriptor releases the flock
}

}  // namespace databox
