#include "catalog/rest/oauth2.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "catalog/rest/fake_transport_test_support.h"
#include "catalog/rest/rest_catalog.h"
#include "common/redact.h"

namespace databox::catalog::rest {
namespace {

using testing::FakeTransport;
using ::testing::HasSubstr;
using ::testing::Not;

constexpr const char* kTokens = "POST /api/catalog/v1/oauth/tokens";
constexpr const char* kConfigRoute = "GET /api/catalog/v1/config";

class OAuth2Test : public ::testing::Test {
 protected:
  RestCatalogOptions Options() {
    RestCatalogOptions options;
    options.name = "lake";
    options.uri = "http://polaris.test/api/catalog";
    options.warehouse = "lake";
    options.client_id = "root";
    options.client_secret = "s3cr3t-client-value";
    options.realm = "POLARIS";
    options.http.retry.max_attempts = 1;
    options.clock = [this] { return now_; };
    return options;
  }

  std::chrono::steady_clock::time_point now_{};
  std::shared_ptr<FakeTransport> fake_ = std::make_shared<FakeTransport>();
};

TEST_F(OAuth2Test, ClientCredentialsTokenIsSentAsBearerWithRealm) {
  fake_->On(kTokens, 200,
            R"({"access_token":"tok-one-abc","token_type":"bearer","expires_in":3600})");
  fake_->On(kConfigRoute, 200, R"({"defaults":{},"overrides":{"prefix":"lake"}})");
  auto catalog = RestCatalog::Open(Options(), fake_);
  ASSERT_TRUE(catalog.has_value()) << catalog.error().ToString();

  auto tokens = fake_->RequestsTo(kTokens);
  ASSERT_EQ(tokens.size(), 1u);
  EXPECT_EQ(tokens[0].headers.Get("Content-Type"), "application/x-www-form-urlencoded");
  EXPECT_EQ(tokens[0].headers.Get("Polaris-Realm"), "POLARIS");
  EXPECT_EQ(tokens[0].body,
            "grant_type=client_credentials&client_id=root&client_secret=s3cr3t-client-value"
            "&scope=PRINCIPAL_ROLE%3AALL");
  auto config = fake_->RequestsTo(kConfigRoute);
  ASSERT_EQ(config.size(), 1u);
  EXPECT_EQ(config[0].headers.Get("Authorization"), "Bearer tok-one-abc");
  EXPECT_EQ(config[0].headers.Get("Polaris-Realm"), "POLARIS");
  EXPECT_EQ(Redact("tok-one-abc s3cr3t-client-value"), "*** ***");
}

TEST_F(OAuth2Test, TokenIsRefreshedBeforeExpiry) {
  fake_->On(kTokens, 200, R"({"access_token":"tok-first","expires_in":600})");
  fake_->On(kTokens, 200, R"({"access_token":"tok-second","expires_in":600})");
  fake_->On(kConfigRoute, 200, R"({"overrides":{"prefix":"lake"}})");
  fake_->On("HEAD /api/catalog/v1/lake/namespaces/raw", 204);
  auto catalog = std::move(RestCatalog::Open(Options(), fake_).value());

  now_ += std::chrono::seconds(500);  // 100 s left: still used (margin is 60 s)
  ASSERT_TRUE(catalog->NamespaceExists({"raw"}).value());
  now_ += std::chrono::seconds(45);  // 55 s left: refreshed first
  ASSERT_TRUE(catalog->NamespaceExists({"raw"}).value());

  EXPECT_EQ(fake_->RequestsTo(kTokens).size(), 2u);
  auto heads = fake_->RequestsTo("HEAD /api/catalog/v1/lake/namespaces/raw");
  ASSERT_EQ(heads.size(), 2u);
  EXPECT_EQ(heads[0].headers.Get("Authorization"), "Bearer tok-first");
  EXPECT_EQ(heads[1].headers.Get("Authorization"), "Bearer tok-second");
}

TEST_F(OAuth2Test, RejectedTokenIsReplacedOnce) {
  fake_->On(kTokens, 200, R"({"access_token":"tok-old"})");
  fake_->On(kTokens, 200, R"({"access_token":"tok-new"})");
  fake_->On(kConfigRoute, 200, R"({"overrides":{"prefix":"lake"}})");
  auto catalog = std::move(RestCatalog::Open(Options(), fake_).value());
  fake_->On("HEAD /api/catalog/v1/lake/namespaces/raw", 401);
  fake_->On("HEAD /api/catalog/v1/lake/namespaces/raw", 204);
  EXPECT_TRUE(catalog->NamespaceExists({"raw"}).value());
  auto heads = fake_->RequestsTo("HEAD /api/catalog/v1/lake/namespaces/raw");
  ASSERT_EQ(heads.size(), 2u);
  EXPECT_EQ(heads[1].headers.Get("Authorization"), "Bearer tok-new");

  // A second 401 in a row is an auth error, not a loop.
  fake_->On("HEAD /api/catalog/v1/lake/namespaces/raw", 401);
  auto refused = catalog->NamespaceExists({"raw"});
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().kind, ErrorKind::kAuth);
}

TEST_F(OAuth2Test, RejectedCredentialIsAuthErrorWithoutSecret) {
  fake_->On(kTokens, 401,
            R"({"error":"invalid_client","error_description":"bad secret s3cr3t-client-value"})");
  auto catalog = RestCatalog::Open(Options(), fake_);
  ASSERT_FALSE(catalog.has_value());
  EXPECT_EQ(catalog.error().kind, ErrorKind::kAuth);
  EXPECT_THAT(catalog.error().message, HasSubstr("invalid_client"));
  EXPECT_THAT(catalog.error().message, Not(HasSubstr("s3cr3t-client-value")));
  EXPECT_TRUE(fake_->RequestsTo(kConfigRoute).empty());
}

TEST_F(OAuth2Test, ExplicitTokenEndpointAndScope) {
  auto options = Options();
  options.oauth2_server_uri = "http://idp.test/oauth/token";
  options.scope = "catalog";
  options.realm.clear();
  fake_->On("POST /oauth/token", 200, R"({"access_token":"tok-idp"})");
  fake_->On(kConfigRoute, 200, R"({})");
  ASSERT_TRUE(RestCatalog::Open(options, fake_).has_value());
  auto tokens = fake_->RequestsTo("POST /oauth/token");
  ASSERT_EQ(tokens.size(), 1u);
  EXPECT_THAT(tokens[0].body, HasSubstr("&scope=catalog"));
  EXPECT_FALSE(tokens[0].headers.Contains("Polaris-Realm"));
}

TEST(OAuth2SettingsTest, MissingPartsAreConfigErrors) {
  OAuth2Settings no_url;
  no_url.client_id = "a";
  no_url.client_secret = "bbbb";
  EXPECT_EQ(OAuth2Tokens::Make(no_url).error().kind, ErrorKind::kConfig);
  OAuth2Settings no_secret;
  no_secret.token_url = "http://x/t";
  no_secret.client_id = "a";
  EXPECT_EQ(OAuth2Tokens::Make(no_secret).error().kind, ErrorKind::kConfig);
}

}  // namespace
}  // namespace databox::catalog::rest
