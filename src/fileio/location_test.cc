#include "fileio/location.h"

#include <gtest/gtest.h>

namespace databox::fileio {
namespace {

TEST(SchemeOf, RecognisesLocalAndS3) {
  EXPECT_EQ(SchemeOf("/tmp/a").value(), Scheme::kLocal);
  EXPECT_EQ(SchemeOf("file:///tmp/a").value(), Scheme::kLocal);
  EXPECT_EQ(SchemeOf("file:/tmp/a").value(), Scheme::kLocal);
  EXPECT_EQ(SchemeOf("s3://bucket/key").value(), Scheme::kS3);
  EXPECT_EQ(SchemeOf("s3a://bucket/key").value(), Scheme::kS3);
}

TEST(SchemeOf, RejectsRelativeAndUnknown) {
  EXPECT_EQ(SchemeOf("relative/path").error().kind, ErrorKind::kConfig);
  EXPECT_EQ(SchemeOf("gs://bucket/key").error().kind, ErrorKind::kConfig);
}

TEST(LocalPathOf, StripsFileUriForms) {
  EXPECT_EQ(LocalPathOf("/a/b").value(), "/a/b");
  EXPECT_EQ(LocalPathOf("file:///a/b").value(), "/a/b");
  EXPECT_EQ(LocalPathOf("file:/a/b").value(), "/a/b");
}

TEST(LocalPathOf, RejectsUnsafeLocations) {
  EXPECT_EQ(LocalPathOf("/a/../etc/passwd").error().kind, ErrorKind::kData);
  EXPECT_EQ(LocalPathOf("/a/..").error().kind, ErrorKind::kData);
  EXPECT_EQ(LocalPathOf(std::string("/a/b\0c", 6)).error().kind, ErrorKind::kData);
  EXPECT_EQ(LocalPathOf("file://host/a").error().kind, ErrorKind::kConfig);
  EXPECT_EQ(LocalPathOf("s3://b/k").error().kind, ErrorKind::kConfig);
  // A name that merely contains dots is fine.
  EXPECT_EQ(LocalPathOf("/a/..b/c..").value(), "/a/..b/c..");
}

TEST(JoinLocation, PutsExactlyOneSlash) {
  EXPECT_EQ(JoinLocation("s3://b/w/", "/ns/t"), "s3://b/w/ns/t");
  EXPECT_EQ(JoinLocation("/w", "t"), "/w/t");
}

}  // namespace
}  // namespace databox::fileio
