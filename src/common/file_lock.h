// A lock file held with flock(2), taken without waiting: the one mechanism behind every lock of
// a workspace (the workspace lock, each source's lock). The kernel drops the lock when its holder
// exits, however it exits, so a crashed process never leaves anything locked. Each holder writes
// "pid N <what> since <time>" into the file so that a refused rival can say who holds it.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "common/error.h"

namespace databox {

enum class LockMode {
  kShared,     //!< other shared holders may hold it at the same time
  kExclusive,  //!< nobody else may
};

struct LockAttempt;

class FileLock {
 public:
  //! Tries to take the lock on `path` (its folder created if missing) in `mode`; `what` names
  //! what the holder does, for a rival's message. kIo when the folder or file cannot be made or
  //! locked for any reason but another holder.
  static Result<LockAttempt> Try(const std::filesystem::path& path, LockMode mode,
                                 const std::string& what);

  FileLock(FileLock&& other) noexcept;
  FileLock& operator=(FileLock&& other) noexcept;
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;
  //! Releases the lock.
  ~FileLock();

 private:
  explicit FileLock(int fd) : fd_(fd) {}
  int fd_ = -1;
};

//! The outcome of FileLock::Try: the lock, or (when another process holds it in a conflicting
//! mode) who holds it: "pid 123 refresh since <time>", "pid 123, pid 456", or "a process that
//! has just ended; retry".
struct LockAttempt {
  std::optional<FileLock> lock;
  std::string holders;
};

}  // namespace databox
