#include "load/source_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <system_error>
#include <utility>

#include "common/clock.h"

namespace databox::load {
namespace {

//! What the holder wrote into the lock file ("pid 123 since 2026-11-30T18:00:00Z"), or "".
std::string Holder(int fd) {
  char text[128];
  const ssize_t got = pread(fd, text, sizeof(text) - 1, 0);
  if (got <= 0) return "";
  std::string holder(text, static_cast<std::size_t>(got));
  while (!holder.empty() && (holder.back() == '\n' || holder.back() == '\0')) holder.pop_back();
  return holder;
}

}  // namespace

Result<SourceLock> SourceLock::Acquire(const std::filesystem::path& locks_dir,
                                       const std::string& source) {
  std::error_code ec;
  std::filesystem::create_directories(locks_dir, ec);
  if (ec) {
    return MakeError(ErrorKind::kIo,
                     "cannot create the lock folder " + locks_dir.string() + ": " + ec.message());
  }
  const std::filesystem::path path = locks_dir / (source + ".lock");
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
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
  const std::string holder = "pid " + std::to_string(::getpid()) + " since " + NowIso() + "\n";
  if (::ftruncate(fd, 0) == 0) {
    [[maybe_unused]] const ssize_t wrote = ::pwrite(fd, holder.data(), holder.size(), 0);
  }
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
