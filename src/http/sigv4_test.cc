// Checks the signer against the example requests published in the Amazon S3 API reference
// ("Signature Calculations for the Authorization Header: Transferring Payload in a Single Chunk",
// sig-v4-header-based-auth.html). The expected signatures are AWS's, not computed here.
#include "http/sigv4.h"

#include <gtest/gtest.h>

#include "common/encoding.h"

namespace databox::http {
namespace {

constexpr std::string_view kHost = "examplebucket.s3.amazonaws.com";
constexpr std::string_view kDate = "20130524T000000Z";

SigningScope DocScope() {
  return SigningScope{.access_key_id = "AKIAIOSFODNN7EXAMPLE",
                      .secret_access_key = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
                      .region = "us-east-1",
                      .amz_date = kDate};
}

TEST(SigV4Test, AwsExampleGetObjectWithRange) {
  SigningRequest request{.method = "GET",
                         .canonical_uri = "/test.txt",
                         .canonical_query = "",
                         .headers = {{"Host", std::string(kHost)},
                                     {"Range", "bytes=0-9"},
                                     {"x-amz-content-sha256", std::string(kEmptyPayloadSha256)},
                                     {"x-amz-date", std::string(kDate)}},
                         .payload_sha256 = kEmptyPayloadSha256};
  SigV4Result result = SignV4(request, DocScope());
  EXPECT_EQ(result.signature, "f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41");
  EXPECT_EQ(result.authorization,
            "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,"
            "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,"
            "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41");
}

TEST(SigV4Test, AwsExamplePutObjectWithEncodedKeyAndPayload) {
  std::string payload_hash = Sha256Hex("Welcome to Amazon S3.");
  ASSERT_EQ(payload_hash, "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072");
  std::string uri = "/" + UrlEncode("test$file.text", /*keep_slash=*/true);
  SigningRequest request{.method = "PUT",
                         .canonical_uri = uri,
                         .canonical_query = "",
                         .headers = {{"Date", "Fri, 24 May 2013 00:00:00 GMT"},
                                     {"Host", std::string(kHost)},
                                     {"x-amz-date", std::string(kDate)},
                                     {"x-amz-storage-class", "REDUCED_REDUNDANCY"},
                                     {"x-amz-content-sha256", payload_hash}},
                         .payload_sha256 = payload_hash};
  SigV4Result result = SignV4(request, DocScope());
  EXPECT_EQ(result.canonical_request.substr(0, 22), "PUT\n/test%24file.text\n");
  EXPECT_EQ(result.signed_headers, "date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class");
  EXPECT_EQ(result.signature, "98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd");
}

//! A GET of the documentation's bucket root with an empty payload and the given query.
SigningRequest BucketGet(const std::string& query) {
  return SigningRequest{.method = "GET",
                        .canonical_uri = "/",
                        .canonical_query = query,
                        .headers = {{"Host", std::string(kHost)},
                                    {"x-amz-content-sha256", std::string(kEmptyPayloadSha256)},
                                    {"x-amz-date", std::string(kDate)}},
                        .payload_sha256 = kEmptyPayloadSha256};
}

TEST(SigV4Test, AwsExampleGetBucketLifecycleValuelessParameter) {
  std::string query = CanonicalQuery({{"lifecycle", ""}});
  EXPECT_EQ(query, "lifecycle=");
  EXPECT_EQ(SignV4(BucketGet(query), DocScope()).signature,
            "fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543");
}

TEST(SigV4Test, AwsExampleListObjectsSortsQuery) {
  std::string query = CanonicalQuery({{"prefix", "J"}, {"max-keys", "2"}});
  EXPECT_EQ(query, "max-keys=2&prefix=J");
  EXPECT_EQ(SignV4(BucketGet(query), DocScope()).signature,
            "34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7");
}

TEST(SigV4Test, SessionTokenAndHeaderValuesChangeTheSignature) {
  SigningRequest request{.method = "GET",
                         .canonical_uri = "/k",
                         .canonical_query = "",
                         .headers = {{"host", "h"},
                                     {"x-amz-content-sha256", std::string(kEmptyPayloadSha256)},
                                     {"x-amz-date", std::string(kDate)}},
                         .payload_sha256 = kEmptyPayloadSha256};
  std::string plain = SignV4(request, DocScope()).signature;
  request.headers.emplace_back("X-Amz-Security-Token", "token-value");
  SigV4Result with_token = SignV4(request, DocScope());
  EXPECT_NE(with_token.signature, plain);
  EXPECT_EQ(with_token.signed_headers, "host;x-amz-content-sha256;x-amz-date;x-amz-security-token");
  // The canonical form collapses inner and outer blanks, so these two sign the same.
  request.headers.back().second = "  token   value ";
  std::string spaced = SignV4(request, DocScope()).signature;
  request.headers.back().second = "token value";
  EXPECT_EQ(spaced, SignV4(request, DocScope()).signature);
}

TEST(SigV4Test, UriEncodeKeepsOnlyUnreservedAndOptionallySlash) {
  EXPECT_EQ(UrlEncode("a b/c~d_e.f-g", /*keep_slash=*/true), "a%20b/c~d_e.f-g");
  EXPECT_EQ(UrlEncode("a/b"), "a%2Fb");
  EXPECT_EQ(UrlEncode("x+y=z&*"), "x%2By%3Dz%26%2A");
  EXPECT_EQ(UrlEncode("\xc3\xa9"), "%C3%A9");
  EXPECT_EQ(CanonicalQuery({{"uploadId", "a/b+c=="}, {"partNumber", "2"}}),
            "partNumber=2&uploadId=a%2Fb%2Bc%3D%3D");
}

TEST(SigV4Test, AmzDateIsUtc) {
  // 2013-05-24T00:00:00Z is 1369353600 seconds after the epoch.
  auto time = std::chrono::system_clock::time_point(std::chrono::seconds(1369353600));
  EXPECT_EQ(AmzDate(time), "20130524T000000Z");
}

}  // namespace
}  // namespace databox::http
