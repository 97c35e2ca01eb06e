// Running one child process (the transform runner's SQLMesh, the catalog backup's tools): argv
// resolved against the child's PATH, stdin from /dev/null, stdout+stderr appended to a log file,
// its own process group, killed with SIGKILL, with every process it started, when the thread
// that started it dies (a small keeper process leads the group and is told by
// PR_SET_PDEATHSIG: a killed databox leaves no child or grandchild running), and a deadline after
// which the group is terminated (SIGTERM, then SIGKILL after a grace period); the same when an
// optional stop condition (e.g. a flag a signal handler sets) becomes true.
#pragma once

#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "common/error.h"

namespace databox {

struct ProcessSpec {
  std::vector<std::string> argv;           //!< argv[0] is looked up in the child's PATH
  std::map<std::string, std::string> env;  //!< set over the inherited environment
  std::filesystem::path cwd;               //!< working directory (must exist)
  std::filesystem::path log_path;          //!< appended to (created if missing)
  std::chrono::steady_clock::time_point deadline;
  std::chrono::milliseconds kill_grace{10000};
  std::string what = "child";  //!< names it in messages: "the <what> command", "the <what> log"
  std::string not_found_hint;  //!< what to do when argv[0] is not found (appended to the error)
  //! When set: polled while the process runs (every few milliseconds, on the waiting thread);
  //! once it returns true the group is terminated as at the deadline (outcome.stopped).
  std::function<bool()> stop;
};

struct ProcessOutcome {
  int exit_code = -1;  //!< exit status, or 128 + signal number
  bool timed_out = false;
  bool stopped = false;  //!< terminated because the stop condition became true
};

//! The executable `program` names: itself when it contains '/', else the first executable
//! <dir>/<program> of the ':'-separated `path`. kNotFound otherwise, ending with `hint` if given.
Result<std::filesystem::path> ResolveProgram(const std::string& program, const std::string& path,
                                             const std::string& hint = "");

//! Starts the process and waits for it (or the deadline). Errors only when it cannot start.
Result<ProcessOutcome> RunProcess(const ProcessSpec& spec);

//! The last `max_bytes` of the file, starting at a line boundary when one is in range.
std::string FileTail(const std::filesystem::path& path, size_t max_bytes);

}  // namespace databox
