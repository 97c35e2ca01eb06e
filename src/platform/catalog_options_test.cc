#include "platform/catalog_options.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace databox::platform {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

TEST(OptionsFromSettingsTest, SplitsCredential) {
  registry::CatalogSettings settings;
  settings.type = registry::CatalogType::kRest;
  settings.name = "lake";
  settings.uri = "http://h/api/catalog";
  settings.credential = registry::Secret("POLARIS_CREDENTIAL", "id1:se:cret", true);
  auto options = RestCatalogOptionsFromSettings(settings, registry::S3Settings{});
  ASSERT_TRUE(options.has_value()) << options.error().ToString();
  EXPECT_EQ(options->client_id, "id1");
  EXPECT_EQ(options->client_secret, "se:cret");
  EXPECT_EQ(options->warehouse, "lake");
  EXPECT_EQ(options->scope, "PRINCIPAL_ROLE:ALL");

  settings.credential = registry::Secret("POLARIS_CREDENTIAL", "nocolon", true);
  auto bad = RestCatalogOptionsFromSettings(settings, registry::S3Settings{});
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(bad.error().kind, ErrorKind::kConfig);
  EXPECT_THAT(bad.error().message, Not(HasSubstr("nocolon")));
  settings.credential = registry::Secret("POLARIS_CREDENTIAL", "", false);
  EXPECT_THAT(RestCatalogOptionsFromSettings(settings, registry::S3Settings{}).error().message,
              HasSubstr("POLARIS_CREDENTIAL"));
}

TEST(OptionsFromSettingsTest, Sigv4SignsWithTheWarehouseKeysAndRegion) {
  registry::CatalogSettings settings;
  settings.type = registry::CatalogType::kRest;
  settings.name = "lake";
  settings.uri = "http://h/iceberg";
  settings.sigv4 = true;
  registry::S3Settings s3;
  s3.region = "eu-central-1";
  s3.access_key_id = registry::Secret("KEY_VAR", "AKID", true);
  s3.secret_access_key = registry::Secret("SECRET_VAR", "sekrit", true);
  auto options = RestCatalogOptionsFromSettings(settings, s3);
  ASSERT_TRUE(options.has_value()) << options.error().ToString();
  ASSERT_TRUE(options->sigv4.has_value());
  EXPECT_EQ(options->sigv4->access_key_id, "AKID");
  EXPECT_EQ(options->sigv4->secret_access_key, "sekrit");
  EXPECT_EQ(options->sigv4->region, "eu-central-1");
  EXPECT_EQ(options->sigv4->service, "s3tables");

  settings.signing_region = "us-west-2";
  settings.signing_name = "glue";
  options = RestCatalogOptionsFromSettings(settings, s3);
  ASSERT_TRUE(options.has_value()) << options.error().ToString();
  EXPECT_EQ(options->sigv4->region, "us-west-2");
  EXPECT_EQ(options->sigv4->service, "glue");

  settings.sigv4 = false;
  options = RestCatalogOptionsFromSettings(settings, s3);
  ASSERT_TRUE(options.has_value()) << options.error().ToString();
  EXPECT_FALSE(options->sigv4.has_value());
}

}  // namespace
}  // namespace databox::platform
