#include "fileio/durable.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace databox::fileio {
namespace {

using ::testing::HasSubstr;

class DurableTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::path(::testing::TempDir()) /
           ("durable_test_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
    file_ = (dir_ / "data.parquet").string();
    std::ofstream(file_, std::ios::binary) << "PAR1";
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::filesystem::path dir_;
  std::string file_;
};

TEST_F(DurableTest, SyncsAnExistingFileAndFolder) {
  EXPECT_TRUE(SyncFile(file_));
  EXPECT_TRUE(SyncFolder(dir_.string()));
}

TEST_F(DurableTest, MissingFileIsNotFoundNamingThePath) {
  const std::string missing = (dir_ / "gone.parquet").string();
  Status synced = SyncFile(missing);
  ASSERT_FALSE(synced);
  EXPECT_EQ(synced.error().kind, ErrorKind::kNotFound);
  EXPECT_THAT(synced.error().message, HasSubstr("file '" + missing + "'"));
}

TEST_F(DurableTest, AFileIsNotAFolder) {
  Status synced = SyncFolder(file_);
  ASSERT_FALSE(synced);
  EXPECT_EQ(synced.error().kind, ErrorKind::kIo);
  EXPECT_THAT(synced.error().message, HasSubstr("folder '" + file_ + "'"));
}

}  // namespace
}  // namespace databox::fileio
