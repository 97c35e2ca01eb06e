// FileLock: shared holders coexist, an exclusive one excludes everyone, and a refused rival is
// told who holds the lock.
#include "common/file_lock.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "common/test_util.h"

namespace databox {
namespace {

namespace fs = std::filesystem;

using FileLockTest = test_util::TempDirTest;

TEST_F(FileLockTest, SharedHoldersCoexistAndKeepAnExclusiveOneOut) {
  const fs::path path = dir_ / "locks" / "workspace.lock";
  auto first = FileLock::Try(path, LockMode::kShared, "run");
  ASSERT_TRUE(first) << first.error().message;
  ASSERT_TRUE(first->lock) << "the folder is created and the lock taken";
  auto second = FileLock::Try(path, LockMode::kShared, "run");
  ASSERT_TRUE(second);
  EXPECT_TRUE(second->lock);

  auto exclusive = FileLock::Try(path, LockMode::kExclusive, "refresh");
  ASSERT_TRUE(exclusive) << "another holder is not an error";
  EXPECT_FALSE(exclusive->lock);
  EXPECT_EQ(exclusive->holders.rfind("pid " + std::to_string(getpid()) + " run since ", 0), 0u)
      << exclusive->holders;

  first->lock.reset();
  second->lock.reset();
  auto after = FileLock::Try(path, LockMode::kExclusive, "refresh");
  ASSERT_TRUE(after);
  EXPECT_TRUE(after->lock) << "released with its holders";
  auto shared = FileLock::Try(path, LockMode::kShared, "run");
  ASSERT_TRUE(shared);
  EXPECT_FALSE(shared->lock) << "an exclusive holder keeps shared ones out";
  EXPECT_NE(shared->holders.find(" refresh since "), std::string::npos) << shared->holders;
}

TEST_F(FileLockTest, AFileWhereTheFolderShouldBeIsAnIoError) {
  fs::create_directories(dir_);
  fs::path blocker = dir_ / "locks";
  {
    FILE* f = std::fopen(blocker.c_str(), "w");
    std::fclose(f);
  }
  auto attempt = FileLock::Try(blocker / "x.lock", LockMode::kExclusive, "");
  ASSERT_FALSE(attempt);
  EXPECT_EQ(attempt.error().kind, ErrorKind::kIo);
}

}  // namespace
}  // namespace databox
