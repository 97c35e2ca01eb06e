#include "fileio/s3/credentials.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>

#include "common/redact.h"

namespace databox::fileio::s3 {
namespace {

using std::chrono::minutes;
using std::chrono::seconds;
using TimePoint = std::chrono::system_clock::time_point;

Credentials Vended(std::string id, TimePoint expiration) {
  return Credentials{
      .access_key_id = std::move(id),
      .secret_access_key = "vended-secret-" + std::to_string(expiration.time_since_epoch().count()),
      .session_token = "vended-token",
      .expiration = expiration};
}

TEST(StaticCredentialsTest, RequiresKeyPairAndRegistersSecrets) {
  EXPECT_EQ(StaticCredentialsProvider::Make({.access_key_id = "id",
                                             .secret_access_key = "",
                                             .session_token = "",
                                             .expiration = std::nullopt})
                .error()
                .kind,
            ErrorKind::kConfig);
  auto provider = StaticCredentialsProvider::Make({.access_key_id = "AKIDSTATIC",
                                                   .secret_access_key = "static-secret-xyz",
                                                   .session_token = "",
                                                   .expiration = std::nullopt});
  ASSERT_TRUE(provider);
  EXPECT_EQ((*provider)->Get().value().access_key_id, "AKIDSTATIC");
  EXPECT_EQ(Redact("s=static-secret-xyz"), "s=***");
}

TEST(RefreshingCredentialsTest, RefreshesBeforeExpiry) {
  TimePoint now{std::chrono::hours(1000)};
  int fetches = 0;
  RefreshingCredentialsProvider provider(
      [&]() -> Result<Credentials> {
        ++fetches;
        return Vended("AKID" + std::to_string(fetches), now + minutes(15));
      },
      seconds(300), [&] { return now; });
  EXPECT_EQ(provider.Get().value().access_key_id, "AKID1");
  now += minutes(9);  // 6 minutes left: still fresh
  EXPECT_EQ(provider.Get().value().access_key_id, "AKID1");
  now += minutes(2);  // 4 minutes left: inside the refresh window
  EXPECT_EQ(provider.Get().value().access_key_id, "AKID2");
  EXPECT_EQ(fetches, 2);
}

TEST(RefreshingCredentialsTest, FailedRefreshKeepsUnexpiredCredentialsThenFails) {
  TimePoint now{std::chrono::hours(1000)};
  bool fail = false;
  RefreshingCredentialsProvider provider(
      [&]() -> Result<Credentials> {
        if (fail) return MakeError(ErrorKind::kNetwork, "catalog unreachable");
        return Vended("AKIDOK", now + minutes(10));
      },
      seconds(300), [&] { return now; });
  ASSERT_TRUE(provider.Get());
  fail = true;
  now += minutes(7);
  EXPECT_EQ(provider.Get().value().access_key_id, "AKIDOK");
  now += minutes(4);  // expired
  Result<Credentials> expired = provider.Get();
  ASSERT_FALSE(expired);
  EXPECT_EQ(expired.error().kind, ErrorKind::kNetwork);
  EXPECT_THAT(expired.error().message, ::testing::HasSubstr("refreshing S3 credentials"));
}

TEST(RefreshingCredentialsTest, PushedCredentialsWithoutFetch) {
  TimePoint now{std::chrono::hours(1000)};
  RefreshingCredentialsProvider provider(nullptr, seconds(60), [&] { return now; });
  EXPECT_EQ(provider.Get().error().kind, ErrorKind::kAuth);
  provider.Update(Vended("AKIDPUSHED", now + minutes(5)));
  EXPECT_EQ(provider.Get().value().access_key_id, "AKIDPUSHED");
  EXPECT_EQ(Redact("vended-token"), "***");
  now += minutes(6);
  EXPECT_EQ(provider.Get().error().kind, ErrorKind::kAuth);
}

TEST(CredentialsFromEnvTest, ReadsDataboxVariables) {
  std::map<std::string, std::string> vars = {{"DATABOX_AWS_ACCESS_KEY_ID", "AKIDENV"},
                                             {"DATABOX_AWS_SECRET_ACCESS_KEY", "env-secret-1"},
                                             {"DATABOX_AWS_SESSION_TOKEN", "env-token-1"}};
  auto env = [&](const char* name) -> std::optional<std::string> {
    auto it = vars.find(name);
    return it == vars.end() ? std::nullopt : std::optional(it->second);
  };
  Result<Credentials> credentials = CredentialsFromEnv(env);
  ASSERT_TRUE(credentials);
  EXPECT_EQ(credentials->access_key_id, "AKIDENV");
  EXPECT_EQ(credentials->session_token, "env-token-1");
  vars.erase("DATABOX_AWS_SECRET_ACCESS_KEY");
  Result<Credentials> missing = CredentialsFromEnv(env);
  ASSERT_FALSE(missing);
  EXPECT_THAT(missing.error().message, ::testing::HasSubstr("DATABOX_AWS_SECRET_ACCESS_KEY"));
  EXPECT_THAT(missing.error().message, ::testing::Not(::testing::HasSubstr("AKIDENV")));
}

}  // namespace
}  // namespace databox::fileio::s3
