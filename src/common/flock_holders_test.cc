#include "common/flock_holders.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <string>

namespace databox {
namespace {

TEST(FlockHoldersTest, NamesTheProcessHoldingTheLockAndNobodyOnceReleased) {
  const std::filesystem::path path = std::filesystem::temp_directory_path() /
                                     ("flock_holders_" + std::to_string(::getpid()) + ".lock");
  const int held = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  ASSERT_GE(held, 0);
  const int other = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
  ASSERT_GE(other, 0);
  EXPECT_TRUE(FlockHolders(other).empty());
  ASSERT_EQ(::flock(held, LOCK_EX | LOCK_NB), 0);
  EXPECT_EQ(FlockHolders(other), std::vector<pid_t>{::getpid()});
  ASSERT_EQ(::flock(held, LOCK_UN), 0);
  EXPECT_TRUE(FlockHolders(other).empty());

  // A child's shared lock is listed under the child's pid.
  int ready[2];
  ASSERT_EQ(::pipe(ready), 0);
  const pid_t child = ::fork();
  if (child == 0) {
    const int fd = ::open(path.c_str(), O_RDWR);
    if (fd < 0 || ::flock(fd, LOCK_SH) != 0) _exit(1);
    if (::write(ready[1], "x", 1) != 1) _exit(1);
    ::pause();
    _exit(0);
  }
  char byte = 0;
  ASSERT_EQ(::read(ready[0], &byte, 1), 1);
  EXPECT_EQ(FlockHolders(other), std::vector<pid_t>{child});
  ::kill(child, SIGKILL);
  ::waitpid(child, nullptr, 0);
  EXPECT_TRUE(FlockHolders(other).empty());
  ::close(ready[0]);
  ::close(ready[1]);
  ::close(held);
  ::close(other);
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace databox
