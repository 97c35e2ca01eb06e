// Who holds a flock(2) lock: the kernel's own record (/proc/locks), read for the file an open
// descriptor names. A lock file's text ("pid 123 since ...") is written after the lock is taken,
// so between the two a rival reads an empty or a previous holder's text; /proc/locks lists the
// holder from the moment it holds the lock. Linux only; an unreadable /proc/locks gives no pids.
#pragma once

#include <sys/types.h>

#include <string>
#include <string_view>
#include <vector>

namespace databox {

//! The pids holding a granted flock lock on the file `fd` is open on (several for shared
//! locks), in /proc/locks order, without duplicates; empty when none or unknown.
std::vector<pid_t> FlockHolders(int fd);

//! The first line a holder wrote into the lock file `fd` is open on ("pid 123 ..."), or "".
std::string LockFileText(int fd);

//! Replaces the lock file's text with "pid <this pid>[ <what>] since <UTC time>\n", for the
//! message a rival prints (LockFileText); best effort: the lock works without it.
void WriteLockFileText(int fd, std::string_view what = "");

}  // namespace databox
