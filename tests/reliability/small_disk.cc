#include "small_disk.h"

#include <fcntl.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>

namespace databox::reliability {
namespace {

namespace fs = std::filesystem;

void WriteFile(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

//! Moves this process into a private mount namespace (once); "" or why it could not.
std::string EnterPrivateMountNamespace() {
  static const std::string error = [] {
    const uid_t uid = geteuid();
    const gid_t gid = getegid();
    if (uid != 0) {
      if (unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0) {
        return std::string("unshare(CLONE_NEWUSER | CLONE_NEWNS): ") + std::strerror(errno);
      }
      WriteFile("/proc/self/setgroups", "deny");
      WriteFile("/proc/self/uid_map", "0 " + std::to_string(uid) + " 1");
      WriteFile("/proc/self/gid_map", "0 " + std::to_string(gid) + " 1");
    } else if (unshare(CLONE_NEWNS) != 0) {
      return std::string("unshare(CLONE_NEWNS): ") + std::strerror(errno);
    }
    if (mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) {
      return std::string("making / private: ") + std::strerror(errno);
    }
    return std::string();
  }();
  return error;
}

}  // namespace

SmallDisk::SmallDisk(const fs::path& dir, std::size_t size) : dir_(dir) {
  error_ = EnterPrivateMountNamespace();
  if (!error_.empty()) return;
  fs::create_directories(dir_);
  const std::string options = "size=" + std::to_string(size) + ",mode=0755";
  if (mount("tmpfs", dir_.c_str(), "tmpfs", 0, options.c_str()) != 0) {
    error_ = "mount tmpfs on " + dir_.string() + ": " + std::strerror(errno);
    return;
  }
  mounted_ = true;
}

SmallDisk::~SmallDisk() {
  if (mounted_) umount2(dir_.c_str(), MNT_DETACH);
}

std::size_t SmallDisk::Free() const {
  struct statvfs st {};
  statvfs(dir_.c_str(), &st);
  return static_cast<std::size_t>(st.f_bavail) * st.f_frsize;
}

bool SmallDisk::LeaveFree(std::size_t free) {
  Unfill();
  const std::size_t available = Free();
  if (available <= free) return true;
  const int fd = open(Filler().c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (fd < 0) return false;
  const bool ok = fallocate(fd, 0, 0, static_cast<off_t>(available - free)) == 0;
  close(fd);
  return ok;
}

void SmallDisk::Unfill() {
  std::error_code ignored;
  fs::remove(Filler(), ignored);
}

}  // namespace databox::reliability
