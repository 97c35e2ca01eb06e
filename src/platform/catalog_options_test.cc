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
  auto options = RestCatalogOptionsFromSettings(settings);
  ASSERT_TRUE(options.has_value()) << options.error().ToString();
  EXPECT_EQ(options->client_id, "id1");
  EXPECT_EQ(options->client_secret, "se:cret");
  EXPECT_EQ(options->warehouse, "lake");
  EXPECT_EQ(options->scope, "PRINCIPAL_ROLE:ALL");

  settings.credential = registry::Secret("POLARIS_CREDENTIAL", "nocolon", true);
  auto bad = RestCatalogOptionsFromSettings(settings);
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(bad.error().kind, ErrorKind::kConfig);
  EXPECT_THAT(bad.error().message, Not(HasSubstr("nocolon")));
  settings.credential = registry::Secret("POLARIS_CREDENTIAL", "", false);
  EXPECT_THAT(RestCatalogOptionsFromSettings(settings).error().message,
              HasSubstr("POLARIS_CREDENTIAL"));
}

}  // namespace
}  // namespace databox::platform
