#include "common/redact.h"

#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

#include "common/encoding.h"

namespace databox {
namespace {

TEST(RedactTest, ReplacesRegisteredSecretEverywhere) {
  RegisterSecret("s3cr3t-value-A");
  EXPECT_EQ(Redact("token s3cr3t-value-A and again s3cr3t-value-A."), "token *** and again ***.");
}

TEST(RedactTest, ReplacesUrlEncodedForms) {
  RegisterSecret("p@ss w/rd+1");
  EXPECT_EQ(Redact("q=p%40ss%20w%2Frd%2B1"), "q=***");
  EXPECT_EQ(Redact("q=p%40ss+w%2Frd%2B1"), "q=***");
  EXPECT_EQ(Redact("raw p@ss w/rd+1"), "raw ***");
}

TEST(RedactTest, IgnoresValuesShorterThanFourCharacters) {
  RegisterSecret("abc");
  EXPECT_EQ(Redact("abc abcd"), "abc abcd");
}

TEST(RedactTest, LongerSecretIsMaskedWhole) {
  RegisterSecret("overlap-1");
  RegisterSecret("overlap-1-longer");
  EXPECT_EQ(Redact("x overlap-1-longer y"), "x *** y");
}

TEST(RedactTest, RedactUrlMasksCredentialParametersWithoutRegistration) {
  EXPECT_EQ(RedactUrl("https://h/p?key=abc&page=1&api_key=zz&datasetKey=4fa&X-Amz-Signature=ff#f"),
            "https://h/p?key=***&page=1&api_key=***&datasetKey=4fa&X-Amz-Signature=***#f");
  EXPECT_EQ(RedactUrl("https://h/p?access_token=a&X-Amz-Credential=AK%2F1&sig=9&classKey=212"),
            "https://h/p?access_token=***&X-Amz-Credential=***&sig=***&classKey=212");
}

TEST(RedactTest, RedactUrlMasksUserInfoPassword) {
  EXPECT_EQ(RedactUrl("postgres://user:hunter22@db:5432/x?y=1"),
            "postgres://user:***@db:5432/x?y=1");
  EXPECT_EQ(RedactUrl("https://example.org/a@b"), "https://example.org/a@b");
}

TEST(RedactTest, RedactUrlAlsoMasksRegisteredSecretsInPath) {
  RegisterSecret("path-secret-99");
  EXPECT_EQ(RedactUrl("https://h/v1/path-secret-99/x"), "https://h/v1/***/x");
}

TEST(RedactTest, CredentialNames) {
  EXPECT_TRUE(IsCredentialParamName("KEY"));
  EXPECT_TRUE(IsCredentialParamName("x-amz-security-token"));
  EXPECT_TRUE(IsCredentialParamName("client_secret"));
  EXPECT_FALSE(IsCredentialParamName("datasetKey"));
  EXPECT_FALSE(IsCredentialParamName("offset"));
  EXPECT_TRUE(IsCredentialHeaderName("Authorization"));
  EXPECT_TRUE(IsCredentialHeaderName("X-eBirdApiToken"));
  EXPECT_TRUE(IsCredentialHeaderName("token"));
  EXPECT_FALSE(IsCredentialHeaderName("Content-Type"));
}

TEST(RedactTest, UrlCodingRoundTrips) {
  EXPECT_EQ(UrlEncode("a b/c~"), "a%20b%2Fc~");
  EXPECT_EQ(UrlDecode("cnt%3A%22United+States%22"), "cnt:\"United States\"");
  EXPECT_EQ(UrlDecode("a+b", /*plus_is_space=*/false), "a+b");
  EXPECT_EQ(UrlDecode("bad%zz%4"), "bad%zz%4");
}

TEST(RedactTest, ConcurrentRegisterAndRedact) {
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([t] {
      for (int i = 0; i < 200; ++i) {
        std::string secret = "concurrent-" + std::to_string(t) + "-" + std::to_string(i);
        RegisterSecret(secret);
        EXPECT_EQ(Redact("<" + secret + ">"), "<***>");
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
}

}  // namespace
}  // namespace databox
