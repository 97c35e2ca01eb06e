#include "platform/s3_settings.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>

namespace databox::platform {
namespace {

using fileio::s3::EnvLookup;
using fileio::s3::S3Options;
using ::testing::HasSubstr;
using ::testing::Not;

class S3ConfigTest : public ::testing::Test {
 protected:
  EnvLookup Env() {
    return [this](const char* name) -> std::optional<std::string> {
      auto it = vars_.find(name);
      return it == vars_.end() ? std::nullopt : std::optional(it->second);
    };
  }
  std::map<std::string, std::string> vars_;
};

TEST_F(S3ConfigTest, SettingsWinAndEnvironmentFillsGaps) {
  vars_ = {{"DATABOX_S3_ENDPOINT", "http://127.0.0.1:9000"}, {"DATABOX_AWS_REGION", "eu-west-1"}};
  registry::S3Settings settings;
  settings.region = "us-west-2";
  settings.path_style = true;
  S3Options options = S3OptionsFromSettings(settings, Env());
  EXPECT_EQ(options.endpoint, "http://127.0.0.1:9000");
  EXPECT_EQ(options.region, "us-west-2");
  EXPECT_TRUE(options.path_style);
  settings.endpoint = "https://s3.example";
  EXPECT_EQ(S3OptionsFromSettings(settings, Env()).endpoint, "https://s3.example");

  S3Options env_only = S3OptionsFromEnv(Env());
  EXPECT_EQ(env_only.region, "eu-west-1");
  EXPECT_TRUE(env_only.path_style);
  vars_.clear();
  EXPECT_EQ(S3OptionsFromEnv(Env()).region, "us-east-1");
  EXPECT_FALSE(S3OptionsFromEnv(Env()).path_style);
}

TEST_F(S3ConfigTest, CredentialsFromRegistrySecretsOrEnvironment) {
  registry::S3Settings settings;
  settings.access_key_id = registry::Secret("MY_KEY_ID", "AKIDREG", true);
  settings.secret_access_key = registry::Secret("MY_SECRET", "registry-secret-1", true);
  auto provider = S3CredentialsFromSettings(settings, Env());
  ASSERT_TRUE(provider) << provider.error().ToString();
  EXPECT_EQ((*provider)->Get().value().access_key_id, "AKIDREG");

  settings.secret_access_key = registry::Secret("MY_SECRET", "", false);
  auto unresolved = S3CredentialsFromSettings(settings, Env());
  ASSERT_FALSE(unresolved);
  EXPECT_EQ(unresolved.error().kind, ErrorKind::kConfig);
  EXPECT_THAT(unresolved.error().message, HasSubstr("${MY_SECRET}"));
  EXPECT_THAT(unresolved.error().message, Not(HasSubstr("AKIDREG")));

  vars_ = {{"DATABOX_AWS_ACCESS_KEY_ID", "AKIDENV"},
           {"DATABOX_AWS_SECRET_ACCESS_KEY", "env-secret-2"}};
  auto from_env = S3CredentialsFromSettings(registry::S3Settings{}, Env());
  ASSERT_TRUE(from_env);
  EXPECT_EQ((*from_env)->Get().value().access_key_id, "AKIDENV");
  vars_.clear();
  EXPECT_EQ(S3CredentialsFromSettings(registry::S3Settings{}, Env()).error().kind,
            ErrorKind::kConfig);
}

}  // namespace
}  // namespace databox::platform
