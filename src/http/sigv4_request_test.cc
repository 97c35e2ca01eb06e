// SignRequest on whole requests: the AWS S3 reference's "GET Bucket (List Objects)" example
// (sig-v4-header-based-auth.html; the expected signature is AWS's), reached from a URL whose
// query is unsorted, and the headers a REST catalog request carries.
#include "http/sigv4_request.h"

#include <gtest/gtest.h>

#include <chrono>

namespace databox::http {
namespace {

// 2013-05-24T00:00:00Z, the time of AWS's examples.
constexpr std::chrono::system_clock::time_point kExampleTime{std::chrono::seconds(1369353600)};

AwsSigning ExampleKeys() {
  return AwsSigning{.access_key_id = "AKIAIOSFODNN7EXAMPLE",
                    .secret_access_key = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
                    .session_token = "",
                    .region = "us-east-1",
                    .service = "s3"};
}

TEST(SignRequest, MatchesAwsListObjectsExampleFromAUrl) {
  Request request;
  request.url = "https://examplebucket.s3.amazonaws.com/?prefix=J&max-keys=2";
  ASSERT_TRUE(SignRequest(request, ExampleKeys(), kExampleTime));
  EXPECT_EQ(request.headers.Get("Authorization"),
            "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,"
            "SignedHeaders=host;x-amz-content-sha256;x-amz-date,"
            "Signature=34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7");
  EXPECT_EQ(request.headers.Get("x-amz-date"), "20130524T000000Z");
  EXPECT_EQ(request.headers.Get("Host"), "examplebucket.s3.amazonaws.com");
}

TEST(SignRequest, SignsTheSessionTokenAndTheServiceButNotOtherHeaders) {
  Request request;
  request.method = Method::kPost;
  request.url = "http://127.0.0.1:8181/v1/warehouse/namespaces";
  request.body = R"({"namespace":["raw"]})";
  request.headers.Set("Content-Type", "application/json");
  AwsSigning signing = ExampleKeys();
  signing.session_token = "token";
  signing.service = "s3tables";
  ASSERT_TRUE(SignRequest(request, signing, kExampleTime));
  const std::string authorization(*request.headers.Get("Authorization"));
  EXPECT_NE(authorization.find("/us-east-1/s3tables/aws4_request,"), std::string::npos);
  EXPECT_NE(authorization.find(
                "SignedHeaders=host;x-amz-content-sha256;x-amz-date;x-amz-security-token,"),
            std::string::npos);
  EXPECT_EQ(request.headers.Get("Host"), "127.0.0.1:8181");
  EXPECT_EQ(request.headers.Get("x-amz-security-token"), "token");
}

TEST(SignRequest, RefusesAUrlWithoutSchemeOrHost) {
  Request request;
  request.url = "127.0.0.1:8181/v1/config";
  EXPECT_FALSE(SignRequest(request, ExampleKeys(), kExampleTime));
  request.url = "http:///v1/config";
  EXPECT_FALSE(SignRequest(request, ExampleKeys(), kExampleTime));
}

TEST(SignRequest, AmzHeadersAreTheXAmzPrefixInAnyCase) {
  EXPECT_TRUE(IsAmzHeader("x-amz-date"));
  EXPECT_TRUE(IsAmzHeader("X-Amz-Security-Token"));
  EXPECT_FALSE(IsAmzHeader("x-amz"));
  EXPECT_FALSE(IsAmzHeader("x-amzdate"));
  EXPECT_FALSE(IsAmzHeader("Authorization"));
}

}  // namespace
}  // namespace databox::http
