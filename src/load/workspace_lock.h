// One refresh per workspace at a time: `databox refresh` and `databox transform` hold an exclusive
// lock on <state_dir>/locks/workspace.lock for their whole run, `databox run` a shared one. A
// second refresh, a refresh or transform while a run loads, or a run while a refresh works is
// refused at once, before it opens anything else of the workspace, with the holder's pid
// (docs/reliability.md). Two runs share
// the workspace; the source lock (source_lock.h) keeps them off the same source.
#pragma once

#include <filesystem>
#include <string>
#include <utility>

#include "common/error.h"
#include "common/file_lock.h"

namespace databox::load {

enum class WorkspaceUse {
  kShared,     //!< `run`: other runs may work at the same time
  kExclusive,  //!< `refresh`, `transform`: nothing else may
};

class WorkspaceLock {
 public:
  //! Takes the workspace lock of `state_dir` (its locks folder created if missing) without
  //! waiting, for `command` ("refresh", "run"). kConflict naming the holders' pids (and what
  //! the exclusive holder runs, and since when) when the use conflicts with a holder's.
  static Result<WorkspaceLock> Acquire(const std::filesystem::path& state_dir, WorkspaceUse use,
                                       const std::string& command);

  //! Releases the lock when destroyed (moves carry it).
 private:
  explicit WorkspaceLock(FileLock lock) : lock_(std::move(lock)) {}
  FileLock lock_;
};

}  // namespace databox::load
