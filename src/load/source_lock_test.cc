#include "load/source_lock.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <string>

#include "common/test_util.h"

namespace databox::load {
namespace {

namespace fs = std::filesystem;

using SourceLockTest = test_util::TempDirTest;

TEST_F(SourceLockTest, ASecondLoadOfTheSameSourceIsRefusedWhileTheFirstHoldsIt) {
  auto first = SourceLock::Acquire(dir_ / "locks", "usgs");
  ASSERT_TRUE(first) << first.error().message;
  auto second = SourceLock::Acquire(dir_ / "locks", "usgs");
  ASSERT_FALSE(second);
  EXPECT_EQ(second.error().kind, ErrorKind::kConflict);
  const std::string& message = second.error().message;
  EXPECT_NE(message.find("source usgs is being loaded by another databox process"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("pid " + std::to_string(getpid()) + " since "), std::string::npos)
      << message;
  // Another source is not held up.
  EXPECT_TRUE(SourceLock::Acquire(dir_ / "locks", "noaa"));
}

TEST_F(SourceLockTest, ReleasedWhenItsHolderEndsOrExits) {
  {
    auto held = SourceLock::Acquire(dir_ / "locks", "usgs");
    ASSERT_TRUE(held);
    SourceLock moved = std::move(*held);  // the moved-from lock releases nothing
    EXPECT_FALSE(SourceLock::Acquire(dir_ / "locks", "usgs"));
  }
  EXPECT_TRUE(SourceLock::Acquire(dir_ / "locks", "usgs")) << "released at the end of its scope";

  // A holder that dies without releasing (as a killed load would) leaves the source free.
  int ready[2];
  ASSERT_EQ(pipe(ready), 0);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    auto lock = SourceLock::Acquire(dir_ / "locks", "usgs");
    const char state = lock ? 'y' : 'n';
    [[maybe_unused]] auto wrote = write(ready[1], &state, 1);
    pause();  // killed below with the lock held
    _exit(0);
  }
  char state = 0;
  ASSERT_EQ(read(ready[0], &state, 1), 1);
  ASSERT_EQ(state, 'y');
  auto while_held = SourceLock::Acquire(dir_ / "locks", "usgs");
  ASSERT_FALSE(while_held);
  EXPECT_NE(while_held.error().message.find("pid " + std::to_string(child)), std::string::npos)
      << while_held.error().message;
  kill(child, SIGKILL);
  int status = 0;
  waitpid(child, &status, 0);
  close(ready[0]);
  close(ready[1]);
  EXPECT_TRUE(SourceLock::Acquire(dir_ / "locks", "usgs")) << "a killed holder keeps nothing";
}

TEST_F(SourceLockTest, AnUnusableLockFolderIsAnIoError) {
  fs::create_directories(dir_);
  { std::ofstream(dir_ / "locks") << "a file where the folder should be"; }
  auto lock = SourceLock::Acquire(dir_ / "locks", "usgs");
  ASSERT_FALSE(lock);
  EXPECT_EQ(lock.error().kind, ErrorKind::kIo);
  EXPECT_NE(lock.error().message.find(dir_.string()), std::string::npos) << lock.error().message;
}

}  // namespace
}  // namespace databox::load
