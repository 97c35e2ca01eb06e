#include "publish/retention.h"

#include <gtest/gtest.h>

#include "publish/manifest.h"
#include "publish/test_util.h"

namespace databox::publish {
namespace {

class RetentionTest : public testing::PublishTest {
 protected:
  //! Writes version `v` naming the data files `files` (and writes those files).
  void WriteVersion(const Layout& layout, int64_t v, const std::vector<std::string>& files) {
    Manifest m;
    m.version = v;
    Relation r;
    r.name = "raw_x.t";
    r.files = files;
    m.relations.push_back(r);
    ASSERT_TRUE(io_->Write(layout.Manifest(v), m.ToJson()).has_value());
    ASSERT_TRUE(
        io_->Write(layout.VersionFolder(v) + "/tables/raw_x/t/metadata/v1.metadata.json", "{}")
            .has_value());
    for (const std::string& file : files) {
      ASSERT_TRUE(io_->Write(layout.Absolute(file), "data").has_value());
    }
  }
  bool Exists(const std::string& location) { return io_->Exists(location).value_or(false); }
};

TEST_F(RetentionTest, KeepsTheNewestVersionsAndTheFilesTheyName) {
  const Layout layout(Path("pub"));
  WriteVersion(layout, 1, {"data/raw_x/t/a.parquet"});
  WriteVersion(layout, 2, {"data/raw_x/t/a.parquet", "data/raw_x/t/b.parquet"});
  WriteVersion(layout, 3, {"data/raw_x/t/b.parquet", "data/raw_x/t/c.parquet"});
  WriteVersion(layout, 4, {"data/raw_x/t/c.parquet", "data/raw_x/t/d.parquet"});
  // A killed publish's version above the current one, and a file only it names.
  WriteVersion(layout, 5, {"data/raw_x/t/e.parquet"});
  auto stats = ApplyRetention(*io_, layout, /*current=*/4, /*keep=*/2);
  ASSERT_TRUE(stats.has_value()) << stats.error().ToString();
  EXPECT_EQ(stats->versions_removed, 2);
  EXPECT_FALSE(Exists(layout.Manifest(1)));
  EXPECT_FALSE(Exists(layout.Manifest(2)));
  EXPECT_TRUE(Exists(layout.Manifest(3)));
  EXPECT_TRUE(Exists(layout.Manifest(4)));
  EXPECT_TRUE(Exists(layout.Manifest(5)));
  EXPECT_FALSE(Exists(layout.Absolute("data/raw_x/t/a.parquet")));
  EXPECT_TRUE(Exists(layout.Absolute("data/raw_x/t/b.parquet")));
  EXPECT_TRUE(Exists(layout.Absolute("data/raw_x/t/c.parquet")));
  EXPECT_TRUE(Exists(layout.Absolute("data/raw_x/t/d.parquet")));
  EXPECT_FALSE(Exists(layout.Absolute("data/raw_x/t/e.parquet")));
  EXPECT_EQ(stats->files_removed, 2);
}

TEST_F(RetentionTest, KeepOneNeverRemovesTheCurrentVersion) {
  const Layout layout(Path("pub"));
  WriteVersion(layout, 1, {"data/raw_x/t/a.parquet"});
  auto stats = ApplyRetention(*io_, layout, 1, 1);
  ASSERT_TRUE(stats.has_value()) << stats.error().ToString();
  EXPECT_EQ(stats->versions_removed, 0);
  EXPECT_TRUE(Exists(layout.Manifest(1)));
  EXPECT_TRUE(Exists(layout.Absolute("data/raw_x/t/a.parquet")));
}

}  // namespace
}  // namespace databox::publish
