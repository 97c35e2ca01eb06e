#include "publish/file_copy.h"

#include <gtest/gtest.h>

#include "publish/test_util.h"

namespace databox::publish {
namespace {

using FileCopyTest = testing::PublishTest;

TEST_F(FileCopyTest, CopiesOnceAndAgainOnlyWhatIsMissingOrDiffers) {
  std::vector<FileCopy> copies;
  for (int i = 0; i < 5; ++i) {
    const std::string source = Path("warehouse/f" + std::to_string(i) + ".parquet");
    const std::string bytes(100 + i, static_cast<char>('a' + i));
    ASSERT_TRUE(io_->Write(source, bytes).has_value());
    copies.push_back({source, Path("target/f" + std::to_string(i)), bytes.size()});
  }
  uint64_t last_done = 0;
  auto first = CopyFiles(*io_, *io_, copies, dir_, 3,
                         [&](const CopyProgress& p) { last_done = p.files_done; });
  ASSERT_TRUE(first.has_value()) << first.error().ToString();
  EXPECT_EQ(first->files_copied, 5u);
  EXPECT_EQ(first->files_present, 0u);
  EXPECT_EQ(last_done, 5u);
  EXPECT_EQ(io_->Read(Path("target/f3")).value_or(""), std::string(103, 'd'));

  ASSERT_TRUE(io_->Delete(Path("target/f1")).has_value());
  ASSERT_TRUE(io_->Write(Path("target/f2"), "truncated").has_value());
  auto second = CopyFiles(*io_, *io_, copies, dir_, 2, nullptr);
  ASSERT_TRUE(second.has_value()) << second.error().ToString();
  EXPECT_EQ(second->files_copied, 2u);
  EXPECT_EQ(second->files_present, 3u);
  EXPECT_EQ(io_->Read(Path("target/f2")).value_or(""), std::string(102, 'c'));
}

TEST_F(FileCopyTest, AMissingSourceFailsNamingIt) {
  const std::vector<FileCopy> copies{{Path("warehouse/gone.parquet"), Path("target/gone"), 10}};
  auto copied = CopyFiles(*io_, *io_, copies, dir_, 1, nullptr);
  ASSERT_FALSE(copied.has_value());
  EXPECT_NE(copied.error().message.find("gone.parquet"), std::string::npos);
}

}  // namespace
}  // namespace databox::publish
