#include "common/flock_holders.h"

#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "common/clock.h"

namespace databox {

std::vector<pid_t> FlockHolders(int fd) {
  std::vector<pid_t> pids;
  struct stat st {};
  if (::fstat(fd, &st) != 0) return pids;
  // /proc/locks names a file "MAJOR:MINOR:INODE", the device numbers in two-digit hex.
  char file[64];
  std::snprintf(file, sizeof(file), "%02x:%02x:%lu", major(st.st_dev), minor(st.st_dev),
                static_cast<unsigned long>(st.st_ino));
  std::ifstream in("/proc/locks");
  for (std::string line; std::getline(in, line);) {
    // "1: FLOCK  ADVISORY  WRITE 1234 08:01:5678 0 EOF"; a waiter's line has "->" after "1:".
    std::istringstream fields(line);
    std::string id, type, mode, access, where;
    long pid = 0;
    if (!(fields >> id >> type) || type != "FLOCK") continue;
    if (!(fields >> mode >> access >> pid >> where) || where != file || pid <= 0) continue;
    if (std::ranges::find(pids, static_cast<pid_t>(pid)) == pids.end()) {
      pids.push_back(static_cast<pid_t>(pid));
    }
  }
  return pids;
}

std::string LockFileText(int fd) {
  char text[160];
  const ssize_t got = ::pread(fd, text, sizeof(text) - 1, 0);
  if (got <= 0) return "";
  std::string line(text, static_cast<std::size_t>(got));
  line = line.substr(0, line.find_first_of(std::string("\n\0", 2)));
  return line;
}

void WriteLockFileText(int fd, std::string_view what) {
  std::string line = "pid " + std::to_string(::getpid());
  if (!what.empty()) line += " " + std::string(what);
  line += " since " + NowIso() + "\n";
  if (::ftruncate(fd, 0) == 0) {
    [[maybe_unused]] const ssize_t wrote = ::pwrite(fd, line.data(), line.size(), 0);
  }
}

}  // namespace databox
