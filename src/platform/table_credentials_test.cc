#include "platform/table_credentials.h"

#include <gtest/gtest.h>

#include "common/redact.h"

namespace databox::platform {
namespace {

using catalog::rest::StorageCredential;
using std::chrono::system_clock;

const iceberg::TableIdentifier kBirds{{"raw"}, "birds"};
const iceberg::TableIdentifier kQuakes{{"raw"}, "quakes"};

StorageCredential Vended(std::string prefix, std::string key, std::optional<int64_t> expires = {}) {
  StorageCredential credential;
  credential.prefix = std::move(prefix);
  credential.config = {{"s3.access-key-id", key},
                       {"s3.secret-access-key", "tablesecret-" + key},
                       {"s3.session-token", "tabletoken-" + key}};
  credential.expires_at_ms = expires;
  return credential;
}

class FixedKeys final : public fileio::s3::CredentialsProvider {
 public:
  Result<fileio::s3::Credentials> Get() override {
    fileio::s3::Credentials credentials;
    credentials.access_key_id = "STATIC";
    credentials.secret_access_key = "staticsecret";
    return credentials;
  }
};

TEST(TableCredentials, LongestPrefixOfTheRequestsLocationSignsIt) {
  TableCredentials credentials(nullptr);
  credentials.Vended(kBirds, "s3://b/wh/raw/birds",
                     {Vended("s3://b/wh/raw", "WIDE"), Vended("s3://b/wh/raw/birds", "NARROW")});
  credentials.Vended(kQuakes, "s3://b/wh/raw/quakes", {Vended("s3://b/wh/raw/quakes", "QUAKES")});
  auto got = credentials.GetFor("s3://b/wh/raw/birds/data/1.parquet");
  ASSERT_TRUE(got.has_value()) << got.error().ToString();
  EXPECT_EQ(got->access_key_id, "NARROW");
  EXPECT_EQ(got->session_token, "tabletoken-NARROW");
  EXPECT_EQ(credentials.GetFor("s3a://b/wh/raw/quakes/metadata/m.avro")->access_key_id, "QUAKES");
  EXPECT_EQ(credentials.GetFor("s3://b/wh/raw/other/x")->access_key_id, "WIDE");
  EXPECT_EQ(Redact("tablesecret-NARROW tabletoken-QUAKES"), "*** ***");
  EXPECT_EQ(credentials.Scoped().size(), 3u);

  // A table's next load replaces what it vended before.
  credentials.Vended(kBirds, "s3://b/wh/raw/birds", {Vended("s3://b/wh/raw/birds", "AGAIN")});
  EXPECT_EQ(credentials.GetFor("s3://b/wh/raw/birds/data/1.parquet")->access_key_id, "AGAIN");
  EXPECT_EQ(credentials.GetFor("s3://b/wh/raw/other/x").error().kind, ErrorKind::kConfig);
}

TEST(TableCredentials, StaticKeysAreTheFallbackAndWithoutThemTheErrorNamesTheTable) {
  TableCredentials with_keys(std::make_shared<FixedKeys>());
  with_keys.Vended(kBirds, "s3://b/wh/raw/birds", {});
  EXPECT_TRUE(with_keys.HasFallback());
  EXPECT_EQ(with_keys.GetFor("s3://b/wh/raw/birds/data/1.parquet")->access_key_id, "STATIC");
  EXPECT_EQ(with_keys.GetFor("s3://b/wh/elsewhere")->access_key_id, "STATIC");

  TableCredentials vended_only(nullptr);
  vended_only.Vended(kBirds, "s3://b/wh/raw/birds", {});
  auto missing = vended_only.GetFor("s3://b/wh/raw/birds/data/1.parquet");
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().kind, ErrorKind::kConfig);
  EXPECT_NE(missing.error().message.find("table raw.birds"), std::string::npos)
      << missing.error().message;
  EXPECT_NE(missing.error().message.find("access_key_id"), std::string::npos);
  auto outside = vended_only.GetFor("s3://b/wh/.probe");
  ASSERT_FALSE(outside.has_value());
  EXPECT_NE(outside.error().message.find("s3://b/wh/.probe"), std::string::npos);
  EXPECT_FALSE(vended_only.Get().has_value());
  EXPECT_TRUE(vended_only.Scoped().empty());
}

TEST(TableCredentials, ReloadsTheTableBeforeItsCredentialsExpire) {
  const auto start = system_clock::time_point(std::chrono::hours(24 * 20000));
  auto now = start;
  const auto ms = [](system_clock::time_point t) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count();
  };
  TableCredentials credentials(nullptr, std::chrono::seconds(60), [&] { return now; });
  int reloads = 0;
  bool reload_works = true;
  credentials.SetReload([&](const iceberg::TableIdentifier& table) -> Status {
    EXPECT_EQ(table, kBirds);
    ++reloads;
    if (!reload_works) return MakeError(ErrorKind::kNetwork, "catalog away");
    credentials.Vended(table, "s3://b/wh/raw/birds",
                       {Vended("s3://b/wh/raw/birds", "KEY" + std::to_string(reloads),
                               ms(now + std::chrono::minutes(10)))});
    return Ok();
  });
  credentials.Vended(kBirds, "s3://b/wh/raw/birds",
                     {Vended("s3://b/wh/raw/birds", "KEY0", ms(start + std::chrono::minutes(5)))});
  const std::string file = "s3://b/wh/raw/birds/data/1.parquet";
  EXPECT_EQ(credentials.GetFor(file)->access_key_id, "KEY0");
  EXPECT_EQ(reloads, 0);

  now = start + std::chrono::minutes(4) + std::chrono::seconds(30);  // within a minute of expiry
  EXPECT_EQ(credentials.GetFor(file)->access_key_id, "KEY1");
  EXPECT_EQ(reloads, 1);
  EXPECT_EQ(credentials.GetFor(file)->access_key_id, "KEY1");  // fresh again: no reload
  EXPECT_EQ(reloads, 1);

  // A failed reload keeps the old credentials while they last, then reports the table.
  reload_works = false;
  now = start + std::chrono::minutes(14);  // KEY1 expires at 14:30
  EXPECT_EQ(credentials.GetFor(file)->access_key_id, "KEY1");
  EXPECT_EQ(reloads, 2);
  now = start + std::chrono::minutes(15);
  auto expired = credentials.GetFor(file);
  ASSERT_FALSE(expired.has_value());
  EXPECT_EQ(expired.error().kind, ErrorKind::kAuth);
  EXPECT_NE(expired.error().message.find("raw.birds"), std::string::npos);
  EXPECT_NE(expired.error().message.find("catalog away"), std::string::npos);
}

}  // namespace
}  // namespace databox::platform
