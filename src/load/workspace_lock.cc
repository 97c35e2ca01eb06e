#include "load/workspace_lock.h"

#include "load/source_lock.h"

namespace databox::load {

Result<WorkspaceLock> WorkspaceLock::Acquire(const std::filesystem::path& state_dir,
                                             WorkspaceUse use, const std::string& command) {
  const std::filesystem::path path = SourceLocksDir(state_dir) / "workspace.lock";
  const LockMode mode = use == WorkspaceUse::kExclusive ? LockMode::kExclusive : LockMode::kShared;
  DATABOX_ASSIGN_OR_RETURN(LockAttempt attempt, FileLock::Try(path, mode, command));
  if (!attempt.lock) {
    return MakeError(ErrorKind::kConflict,
                     "the workspace " + state_dir.string() +
                         " is in use by another databox process (" + attempt.holders +
                         "); one refresh or transform per workspace at a time, and no run while "
                         "one works; wait for it to finish and retry (its lock is " +
                         path.string() + ")");
  }
  return WorkspaceLock(std::move(*attempt.lock));
}

}  // namespace databox::load
