#include "fileio/s3/s3_url.h"

#include <gtest/gtest.h>

namespace databox::fileio::s3 {
namespace {

TEST(S3PathTest, ParsesBucketAndKey) {
  Result<S3Path> path = ParseS3Path("s3://bucket/warehouse/raw_x/t/data/f 1.parquet");
  ASSERT_TRUE(path);
  EXPECT_EQ(path->scheme, "s3");
  EXPECT_EQ(path->bucket, "bucket");
  EXPECT_EQ(path->key, "warehouse/raw_x/t/data/f 1.parquet");
  EXPECT_EQ(path->Location(), "s3://bucket/warehouse/raw_x/t/data/f 1.parquet");

  Result<S3Path> s3a = ParseS3Path("s3a://b");
  ASSERT_TRUE(s3a);
  EXPECT_EQ(s3a->key, "");
  EXPECT_EQ(s3a->Location(), "s3a://b/");
  ASSERT_TRUE(ParseS3Path("s3://b/prefix/"));
}

TEST(S3PathTest, RejectsOtherSchemesAndUnnormalisedKeys) {
  EXPECT_EQ(ParseS3Path("/tmp/x").error().kind, ErrorKind::kConfig);
  EXPECT_EQ(ParseS3Path("gs://b/k").error().kind, ErrorKind::kConfig);
  EXPECT_EQ(ParseS3Path("s3:///k").error().kind, ErrorKind::kConfig);
  EXPECT_EQ(ParseS3Path("s3://b/a/../k").error().kind, ErrorKind::kData);
  EXPECT_EQ(ParseS3Path("s3://b/./k").error().kind, ErrorKind::kData);
  EXPECT_EQ(ParseS3Path("s3://b/a//k").error().kind, ErrorKind::kData);
  EXPECT_EQ(ParseS3Path(std::string_view("s3://b/a\0b", 10)).error().kind, ErrorKind::kData);
}

TEST(S3EndpointTest, PathStyleOnCustomEndpoint) {
  Result<S3Endpoint> endpoint = S3Endpoint::Make("http://127.0.0.1:5000/", "us-east-1", true);
  ASSERT_TRUE(endpoint);
  S3Target target = endpoint->For("databox", "a b/c+d.txt", "");
  EXPECT_EQ(target.url, "http://127.0.0.1:5000/databox/a%20b/c%2Bd.txt");
  EXPECT_EQ(target.host, "127.0.0.1:5000");
  EXPECT_EQ(target.canonical_uri, "/databox/a%20b/c%2Bd.txt");

  S3Target list = endpoint->For("databox", "", "list-type=2&prefix=a%2F");
  EXPECT_EQ(list.url, "http://127.0.0.1:5000/databox?list-type=2&prefix=a%2F");
  EXPECT_EQ(list.canonical_uri, "/databox");
}

TEST(S3EndpointTest, VirtualHostedOnAws) {
  Result<S3Endpoint> endpoint = S3Endpoint::Make("", "eu-west-1", false);
  ASSERT_TRUE(endpoint);
  S3Target target = endpoint->For("examplebucket", "test$file.text", "");
  EXPECT_EQ(target.url, "https://examplebucket.s3.eu-west-1.amazonaws.com/test%24file.text");
  EXPECT_EQ(target.host, "examplebucket.s3.eu-west-1.amazonaws.com");
  EXPECT_EQ(target.canonical_uri, "/test%24file.text");

  S3Target uploads = endpoint->For("examplebucket", "k", "uploads=");
  EXPECT_EQ(uploads.url, "https://examplebucket.s3.eu-west-1.amazonaws.com/k?uploads=");

  // A dotted bucket cannot be a TLS sub-domain: it falls back to path-style.
  S3Target dotted = endpoint->For("my.bucket", "k", "");
  EXPECT_EQ(dotted.url, "https://s3.eu-west-1.amazonaws.com/my.bucket/k");
}

TEST(S3EndpointTest, VirtualHostedOnCustomEndpointWithBasePath) {
  Result<S3Endpoint> endpoint = S3Endpoint::Make("https://store.example:8443/s3", "r", false);
  ASSERT_TRUE(endpoint);
  S3Target target = endpoint->For("b", "k", "");
  EXPECT_EQ(target.url, "https://b.store.example:8443/s3/k");
  EXPECT_EQ(target.host, "b.store.example:8443");
  EXPECT_EQ(target.canonical_uri, "/s3/k");
}

TEST(S3EndpointTest, RejectsBadEndpoints) {
  EXPECT_EQ(S3Endpoint::Make("127.0.0.1:9000", "r", true).error().kind, ErrorKind::kConfig);
  EXPECT_EQ(S3Endpoint::Make("http://", "r", true).error().kind, ErrorKind::kConfig);
  EXPECT_EQ(S3Endpoint::Make("http://u:p@h", "r", true).error().kind, ErrorKind::kConfig);
  EXPECT_EQ(S3Endpoint::Make("", "", false).error().kind, ErrorKind::kConfig);
}

}  // namespace
}  // namespace databox::fileio::s3
