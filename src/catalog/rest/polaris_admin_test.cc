// PolarisAdmin against a fake transport only: Polaris cannot be built here (docs/services.md),
// so these tests check the requests we send and how answers are read, not a real server.
#include "catalog/rest/polaris_admin.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "catalog/rest/fake_transport_test_support.h"

namespace databox::catalog::rest {
namespace {

using nlohmann::json;
using testing::FakeTransport;
using ::testing::HasSubstr;
using ::testing::Not;

constexpr const char* kMgmt = "/api/management/v1";

class PolarisAdminTest : public ::testing::Test {
 protected:
  void SetUp() override {
    fake_->On("POST /api/catalog/v1/oauth/tokens", 200, R"({"access_token":"admin-token-xyz"})");
  }

  PolarisAdmin Make() {
    PolarisAdminOptions options;
    options.management_uri = "http://polaris.test/api/management/v1/";
    options.token_url = "http://polaris.test/api/catalog/v1/oauth/tokens";
    options.client_id = "root";
    options.client_secret = "root-secret-value";
    options.realm = "POLARIS";
    options.http.retry.max_attempts = 1;
    auto admin = PolarisAdmin::Make(options, fake_);
    EXPECT_TRUE(admin.has_value()) << admin.error().ToString();
    return std::move(*admin);
  }

  static PolarisCatalogSpec Spec() {
    PolarisCatalogSpec spec;
    spec.name = "lake";
    spec.default_base_location = "s3://databox/lake";
    spec.s3_endpoint = "http://127.0.0.1:9000";
    spec.path_style_access = true;
    spec.region = "us-east-1";
    spec.sts_unavailable = true;
    return spec;
  }

  void AllCreated() {
    fake_->On(std::string("POST ") + kMgmt + "/catalogs", 201, "{}");
    fake_->On(std::string("POST ") + kMgmt + "/catalogs/lake/catalog-roles", 201, "{}");
    fake_->On(std::string("PUT ") + kMgmt + "/catalogs/lake/catalog-roles/databox_writer/grants",
              201, "");
    fake_->On(std::string("PUT ") + kMgmt + "/principal-roles/service_admin/catalog-roles/lake",
              201, "");
  }

  std::shared_ptr<FakeTransport> fake_ = std::make_shared<FakeTransport>();
};

TEST_F(PolarisAdminTest, CreatesCatalogRoleGrantAndAssignment) {
  fake_->On(std::string("GET ") + kMgmt + "/catalogs", 200,
            R"({"catalogs":[{"name":"other","type":"INTERNAL",
                "properties":{"default-base-location":"s3://databox/lakehouse"},
                "storageConfigInfo":{"storageType":"S3","allowedLocations":["s3://databox/lakehouse"]}}]})");
  AllCreated();
  auto admin = Make();
  auto steps = admin.Bootstrap(Spec());
  ASSERT_TRUE(steps.has_value()) << steps.error().ToString();
  ASSERT_EQ(steps->size(), 5u);
  EXPECT_EQ((*steps)[1].action, "create catalog 'lake'");
  EXPECT_EQ((*steps)[1].status, 201);
  EXPECT_EQ((*steps)[1].outcome, "created");

  auto create = fake_->RequestsTo(std::string("POST ") + kMgmt + "/catalogs");
  ASSERT_EQ(create.size(), 1u);
  EXPECT_EQ(json::parse(create[0].body), json::parse(R"({"catalog": {
      "type": "INTERNAL", "name": "lake",
      "properties": {"default-base-location": "s3://databox/lake"},
      "storageConfigInfo": {"storageType": "S3", "allowedLocations": ["s3://databox/lake"],
        "endpoint": "http://127.0.0.1:9000", "pathStyleAccess": true, "region": "us-east-1",
        "stsUnavailable": true}}})"));
  EXPECT_EQ(create[0].headers.Get("Authorization"), "Bearer admin-token-xyz");
  EXPECT_EQ(create[0].headers.Get("Polaris-Realm"), "POLARIS");

  auto role = fake_->RequestsTo(std::string("POST ") + kMgmt + "/catalogs/lake/catalog-roles");
  ASSERT_EQ(role.size(), 1u);
  EXPECT_EQ(json::parse(role[0].body), json::parse(R"({"catalogRole":{"name":"databox_writer"}})"));
  auto grant = fake_->RequestsTo(std::string("PUT ") + kMgmt +
                                 "/catalogs/lake/catalog-roles/databox_writer/grants");
  ASSERT_EQ(grant.size(), 1u);
  EXPECT_EQ(json::parse(grant[0].body),
            json::parse(R"({"grant":{"type":"catalog","privilege":"CATALOG_MANAGE_CONTENT"}})"));
  auto assign = fake_->RequestsTo(std::string("PUT ") + kMgmt +
                                  "/principal-roles/service_admin/catalog-roles/lake");
  ASSERT_EQ(assign.size(), 1u);
  EXPECT_EQ(json::parse(assign[0].body),
            json::parse(R"({"catalogRole":{"name":"databox_writer"}})"));
}

TEST_F(PolarisAdminTest, SecondRunReportsExistingObjects) {
  fake_->On(
      std::string("GET ") + kMgmt + "/catalogs", 200,
      R"({"catalogs":[{"name":"lake","properties":{"default-base-location":"s3://databox/lake/"}}]})");
  fake_->On(
      std::string("POST ") + kMgmt + "/catalogs/lake/catalog-roles", 409,
      R"({"error":{"message":"role exists","type":"EntityAlreadyExistsException","code":409}})");
  fake_->On(std::string("PUT ") + kMgmt + "/catalogs/lake/catalog-roles/databox_writer/grants", 201,
            "");
  fake_->On(std::string("PUT ") + kMgmt + "/principal-roles/service_admin/catalog-roles/lake", 409,
            "");
  auto admin = Make();
  auto steps = admin.Bootstrap(Spec());
  ASSERT_TRUE(steps.has_value()) << steps.error().ToString();
  EXPECT_TRUE(fake_->RequestsTo(std::string("POST ") + kMgmt + "/catalogs").empty());
  EXPECT_EQ((*steps)[1].outcome, "already exists");
  EXPECT_EQ((*steps)[2].status, 409);
  EXPECT_EQ((*steps)[2].outcome, "already exists");
  EXPECT_EQ((*steps)[4].outcome, "already exists");
}

TEST_F(PolarisAdminTest, RefusesOverlappingLocation) {
  fake_->On(
      std::string("GET ") + kMgmt + "/catalogs", 200,
      R"({"catalogs":[{"name":"wide","properties":{"default-base-location":"s3://databox"}}]})");
  auto admin = Make();
  auto steps = admin.Bootstrap(Spec());
  ASSERT_FALSE(steps.has_value());
  EXPECT_EQ(steps.error().kind, ErrorKind::kConfig);
  EXPECT_THAT(steps.error().message, HasSubstr("overlaps s3://databox of Polaris catalog 'wide'"));
  EXPECT_TRUE(fake_->RequestsTo(std::string("POST ") + kMgmt + "/catalogs").empty());
}

TEST_F(PolarisAdminTest, RefusesSameNameElsewhere) {
  fake_->On(std::string("GET ") + kMgmt + "/catalogs", 200,
            R"({"catalogs":[{"name":"lake","properties":{"default-base-location":"s3://x/y"}}]})");
  auto admin = Make();
  EXPECT_EQ(admin.Bootstrap(Spec()).error().kind, ErrorKind::kConfig);
}

TEST_F(PolarisAdminTest, RoleArnInsteadOfStsUnavailable) {
  auto spec = Spec();
  spec.sts_unavailable = false;
  spec.role_arn = "arn:aws:iam::123456789012:role/databox";
  spec.allowed_locations = {"s3://databox/lake", "s3://databox/extra"};
  json body = json::parse(PolarisAdmin::CreateCatalogBody(spec));
  EXPECT_EQ(body["catalog"]["storageConfigInfo"]["roleArn"],
            "arn:aws:iam::123456789012:role/databox");
  EXPECT_FALSE(body["catalog"]["storageConfigInfo"].contains("stsUnavailable"));
  EXPECT_EQ(body["catalog"]["storageConfigInfo"]["allowedLocations"].size(), 2u);

  spec.role_arn.reset();
  auto admin = Make();
  EXPECT_EQ(admin.Bootstrap(spec).error().kind, ErrorKind::kConfig);
}

TEST_F(PolarisAdminTest, ServerErrorsReportStatusWithoutCredentials) {
  fake_->On(std::string("GET ") + kMgmt + "/catalogs", 200, R"({"catalogs":[]})");
  fake_->On(
      std::string("POST ") + kMgmt + "/catalogs", 400,
      R"({"error":{"message":"bad storage for root-secret-value","type":"BadRequest","code":400}})");
  auto admin = Make();
  auto steps = admin.Bootstrap(Spec());
  ASSERT_FALSE(steps.has_value());
  EXPECT_EQ(steps.error().kind, ErrorKind::kData);
  EXPECT_THAT(steps.error().message, HasSubstr("HTTP 400"));
  EXPECT_THAT(steps.error().message, Not(HasSubstr("root-secret-value")));

  fake_->On(
      std::string("GET ") + kMgmt + "/catalogs", 403,
      R"({"error":{"message":"Principal 'x' is not authorized","type":"ForbiddenException","code":403}})");
  EXPECT_EQ(admin.Bootstrap(Spec()).error().kind, ErrorKind::kAuth);
}

TEST(LocationsOverlapTest, WholeSegmentsOnly) {
  EXPECT_TRUE(LocationsOverlap("s3://b/a", "s3://b/a/x"));
  EXPECT_TRUE(LocationsOverlap("s3://b/a/", "s3://b/a"));
  EXPECT_FALSE(LocationsOverlap("s3://b/a", "s3://b/ab"));
  EXPECT_FALSE(LocationsOverlap("s3://b/a", "s3://c/a"));
}

}  // namespace
}  // namespace databox::catalog::rest
