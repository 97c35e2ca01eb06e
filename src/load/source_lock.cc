#include "load/source_lock.h"

namespace databox::load {

std::filesystem::path SourceLocksDir(const std::filesystem::path& state_dir) {
  return state_dir / "locks";
}

Result<SourceLock> SourceLock::Acquire(const std::filesystem::path& locks_dir,
                                       const std::string& source) {
  const std::filesystem::path path = locks_dir / (source + ".lock");
  DATABOX_ASSIGN_OR_RETURN(LockAttempt attempt, FileLock::Try(path, LockMode::kExclusive, ""));
  if (!attempt.lock) {
    return MakeError(
        ErrorKind::kConflict,
        "source " + source + " is being loaded by another databox process (" + attempt.holders +
            "); wait for it to finish, or stop that process (its lock is " + path.string() + ")");
  }
  return SourceLock(std::move(*attempt.lock));
}

}  // namespace databox::load
