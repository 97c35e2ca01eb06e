// One load of a source at a time: `databox run` and `databox refresh` hold an exclusive lock on
// <state_dir>/locks/<source>.lock while they load that source. Two loads of one source at once
// would otherwise both append the same rows (merges already conflict at commit instead).
#pragma once

#include <filesystem>
#include <string>
#include <utility>

#include "common/error.h"
#include "common/file_lock.h"

namespace databox::load {

//! Where the source locks of a project live: <state_dir>/locks.
std::filesystem::path SourceLocksDir(const std::filesystem::path& state_dir);

class SourceLock {
 public:
  //! Takes the lock of `source` in `locks_dir` (created if missing) without waiting. kConflict
  //! naming the holder's pid and start time when another process (or another open of the same
  //! file) holds it. The kernel drops the lock when its holder exits, however it exits, so a
  //! crashed load never leaves the source locked.
  static Result<SourceLock> Acquire(const std::filesystem::path& locks_dir,
                                    const std::string& source);

  //! Releases the lock when destroyed (moves carry it).
 private:
  explicit SourceLock(FileLock lock) : lock_(std::move(lock)) {}
  FileLock lock_;
};

}  // namespace databox::load
