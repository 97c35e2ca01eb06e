#include "publish/layout.h"

#include <gtest/gtest.h>

namespace databox::publish {
namespace {

TEST(LayoutTest, PlacesEveryFileUnderTheRoot) {
  const Layout layout("s3://bucket/pub/");
  EXPECT_EQ(layout.root(), "s3://bucket/pub");
  EXPECT_EQ(layout.Pointer(), "s3://bucket/pub/current.json");
  EXPECT_EQ(layout.Marker(), "s3://bucket/pub/.databox-publish");
  EXPECT_EQ(layout.Manifest(7), "s3://bucket/pub/versions/000007/manifest.json");
  EXPECT_EQ(layout.ModelsDatabase(12), "s3://bucket/pub/versions/000012/models.duckdb");
  EXPECT_EQ(layout.TableLocation(3, "raw_x", "t"),
            "s3://bucket/pub/versions/000003/tables/raw_x/t");
}

TEST(LayoutTest, DataFileNameIsDerivedFromSourceLocationAndSize) {
  const Layout layout("/srv/pub");
  // First 16 hex digits of SHA-256("s3://w/t/data/a.parquet\n1234"), computed with Python's
  // hashlib.
  EXPECT_EQ(layout.DataFile("raw_x", "t", "s3://w/t/data/a.parquet", 1234),
            "/srv/pub/data/raw_x/t/e5973e98f07b6caa-a.parquet");
  EXPECT_NE(layout.DataFile("raw_x", "t", "s3://w/t/data/a.parquet", 1235),
            layout.DataFile("raw_x", "t", "s3://w/t/data/a.parquet", 1234));
  EXPECT_NE(layout.DataFile("raw_x", "t", "s3://w/u/data/a.parquet", 1234),
            layout.DataFile("raw_x", "t", "s3://w/t/data/a.parquet", 1234));
}

TEST(LayoutTest, RelativeAndVersionOf) {
  const Layout layout("/srv/pub");
  EXPECT_EQ(layout.Relative("/srv/pub/data/x.parquet"), "data/x.parquet");
  EXPECT_EQ(layout.Relative("/srv/public/data/x.parquet"), std::nullopt);
  EXPECT_EQ(layout.Relative("/srv/pub"), std::nullopt);
  EXPECT_EQ(layout.Absolute("data/x.parquet"), "/srv/pub/data/x.parquet");
  EXPECT_EQ(layout.VersionOf("/srv/pub/versions/000042/manifest.json"), 42);
  EXPECT_EQ(layout.VersionOf("/srv/pub/versions/abc/manifest.json"), std::nullopt);
  EXPECT_EQ(layout.VersionOf("/srv/pub/data/000042/x"), std::nullopt);
}

}  // namespace
}  // namespace databox::publish
