#include "fileio/durable.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
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

  static std::string ReadAll(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }

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

TEST_F(DurableTest, CreatesMissingFoldersAndIsFineWhenTheyExist) {
  const std::filesystem::path nested = dir_ / "a" / "b" / "c";
  ASSERT_TRUE(CreateFoldersDurably(nested));
  EXPECT_TRUE(std::filesystem::is_directory(nested));
  EXPECT_TRUE(CreateFoldersDurably(nested));
  EXPECT_TRUE(CreateFoldersDurably(dir_ / "a" / "b" / "d" / ""));  // trailing slash
  EXPECT_TRUE(std::filesystem::is_directory(dir_ / "a" / "b" / "d"));
}

TEST_F(DurableTest, AFileInTheWayOfAFolderFailsNamingIt) {
  const std::filesystem::path under_file = std::filesystem::path(file_) / "sub";
  Status created = CreateFoldersDurably(under_file);
  ASSERT_FALSE(created);
  EXPECT_EQ(created.error().kind, ErrorKind::kIo);
  EXPECT_THAT(created.error().message, HasSubstr(under_file.string()));
  Status over_file = CreateFoldersDurably(file_);
  ASSERT_FALSE(over_file);
  EXPECT_THAT(over_file.error().message, HasSubstr("folder '" + file_ + "'"));
}

TEST_F(DurableTest, WritesANewFileAndReplacesAnOldOneLeavingNoTemporary) {
  const std::filesystem::path path = dir_ / "state.json";
  ASSERT_TRUE(WriteFileDurably(path, "first"));
  EXPECT_EQ(ReadAll(path), "first");
  const std::string bigger(100000, 'x');
  ASSERT_TRUE(WriteFileDurably(path, bigger));
  EXPECT_EQ(ReadAll(path), bigger);
  ASSERT_TRUE(WriteFileDurably(path, ""));
  EXPECT_EQ(ReadAll(path), "");
  EXPECT_FALSE(std::filesystem::exists(path.string() + ".tmp"));
}

TEST_F(DurableTest, WritingIntoAMissingFolderFailsNamingThePath) {
  const std::filesystem::path path = dir_ / "missing" / "state.json";
  Status written = WriteFileDurably(path, "x");
  ASSERT_FALSE(written);
  EXPECT_EQ(written.error().kind, ErrorKind::kNotFound);
  EXPECT_THAT(written.error().message, HasSubstr(path.string()));
  EXPECT_FALSE(std::filesystem::exists(dir_ / "missing"));
}

TEST_F(DurableTest, AFailedRenameRemovesTheTemporaryAndKeepsTheTarget) {
  // A folder where the file should go: rename(2) of a file onto a folder fails.
  const std::filesystem::path path = dir_ / "taken";
  std::filesystem::create_directories(path / "inside");
  Status written = WriteFileDurably(path, "x");
  ASSERT_FALSE(written);
  EXPECT_THAT(written.error().message, HasSubstr(path.string()));
  EXPECT_TRUE(std::filesystem::is_directory(path / "inside"));
  EXPECT_FALSE(std::filesystem::exists(path.string() + ".tmp"));
}

TEST_F(DurableTest, RenameDurablyPublishesAWrittenFile) {
  const std::filesystem::path target = dir_ / "published.parquet";
  ASSERT_TRUE(RenameDurably(file_, target));
  EXPECT_EQ(ReadAll(target), "PAR1");
  EXPECT_FALSE(std::filesystem::exists(file_));
  Status again = RenameDurably(file_, target);  // the source is gone
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().kind, ErrorKind::kNotFound);
  EXPECT_THAT(again.error().message, HasSubstr(file_));
  EXPECT_EQ(ReadAll(target), "PAR1");
}

TEST_F(DurableTest, AFileIsNotAFolder) {
  Status synced = SyncFolder(file_);
  ASSERT_FALSE(synced);
  EXPECT_EQ(synced.error().kind, ErrorKind::kIo);
  EXPECT_THAT(synced.error().message, HasSubstr("folder '" + file_ + "'"));
}

}  // namespace
}  // namespace databox::fileio
