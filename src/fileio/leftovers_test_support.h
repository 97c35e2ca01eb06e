// Test support for fileio/leftovers.h: the pid of a process that is certainly gone.
#pragma once

#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

namespace databox::fileio::testing {

//! Forks a child that exits at once and reaps it: its pid names no live process (until the
//! kernel hands the number out again, far later than a test needs).
inline pid_t DeadPid() {
  const pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  int status = 0;
  ::waitpid(child, &status, 0);
  return child;
}

}  // namespace databox::fileio::testing
