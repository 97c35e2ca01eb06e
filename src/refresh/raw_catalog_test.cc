#include "refresh/raw_catalog.h"

#include <gtest/gtest.h>

namespace databox::refresh {
namespace {

registry::Registry RestRegistry() {
  registry::Registry registry;
  registry.project.catalog.type = registry::CatalogType::kRest;
  registry.project.catalog.name = "databox_lake";
  registry.project.catalog.uri = "http://127.0.0.1:8181/api/catalog/";
  registry.project.analytics.catalog_alias = "polaris_aws";
  return registry;
}

TEST(RawCatalogTest, OnlyARestCatalogIsAttached) {
  registry::Registry embedded;
  EXPECT_FALSE(AttachesRawCatalog(embedded));
  auto env = RawCatalogEnvironment(embedded);
  ASSERT_TRUE(env) << env.error().message;
  EXPECT_TRUE(env->empty());
  EXPECT_TRUE(AttachesRawCatalog(RestRegistry()));
}

TEST(RawCatalogTest, AttachWithoutCredentialHasNoAuthorization) {
  registry::Registry registry = RestRegistry();
  auto sql = RawCatalogAttachSql(registry);
  ASSERT_TRUE(sql) << sql.error().message;
  EXPECT_EQ(*sql,
            "ATTACH 'databox_lake' AS \"polaris_aws_iceberg\" (TYPE iceberg, ENDPOINT "
            "'http://127.0.0.1:8181/api/catalog', AUTHORIZATION_TYPE 'none', READ_ONLY)");
  registry.project.catalog.warehouse = "it's";
  sql = RawCatalogAttachSql(registry);
  ASSERT_TRUE(sql);
  EXPECT_TRUE(sql->starts_with("ATTACH 'it''s' AS ")) << *sql;

  auto env = RawCatalogEnvironment(registry);
  ASSERT_TRUE(env) << env.error().message;
  EXPECT_EQ(env->at("DATABOX_RAW_CATALOG"), "1");
  EXPECT_EQ(env->at("DATABOX_RAW_CATALOG_NAME"), "polaris_aws_iceberg");
  EXPECT_EQ(env->at("DATABOX_RAW_CATALOG_WAREHOUSE"), "it's");
  EXPECT_EQ(env->at("DATABOX_RAW_CATALOG_ENDPOINT"), "http://127.0.0.1:8181/api/catalog");
  EXPECT_EQ(env->at("DATABOX_RAW_CATALOG_TOKEN"), "unauthenticated");
  EXPECT_FALSE(env->contains("DATABOX_RAW_CATALOG_CLIENT_ID"));
}

TEST(RawCatalogTest, CredentialBecomesAnOAuthClient) {
  registry::Registry registry = RestRegistry();
  registry.project.catalog.credential = registry::Secret("POLARIS_CREDENTIAL", "id1:se:cret", true);
  registry.project.catalog.scope = "PRINCIPAL_ROLE:ALL";
  auto sql = RawCatalogAttachSql(registry);
  ASSERT_TRUE(sql) << sql.error().message;
  EXPECT_NE(sql->find("CLIENT_ID 'id1', CLIENT_SECRET 'se:cret', OAUTH2_SERVER_URI "
                      "'http://127.0.0.1:8181/api/catalog/v1/oauth/tokens', OAUTH2_SCOPE "
                      "'PRINCIPAL_ROLE:ALL'"),
            std::string::npos)
      << *sql;
  auto env = RawCatalogEnvironment(registry);
  ASSERT_TRUE(env);
  EXPECT_EQ(env->at("DATABOX_RAW_CATALOG_CLIENT_SECRET"), "se:cret");
  EXPECT_FALSE(env->contains("DATABOX_RAW_CATALOG_TOKEN"));

  registry.project.catalog.oauth2_server_uri = "https://idp.example/token";
  sql = RawCatalogAttachSql(registry);
  ASSERT_TRUE(sql);
  EXPECT_NE(sql->find("OAUTH2_SERVER_URI 'https://idp.example/token'"), std::string::npos);

  registry.project.catalog.credential = registry::Secret("POLARIS_CREDENTIAL", "nocolon", true);
  sql = RawCatalogAttachSql(registry);
  ASSERT_FALSE(sql);
  EXPECT_EQ(sql.error().kind, ErrorKind::kConfig);
  EXPECT_EQ(sql.error().message.find("nocolon"), std::string::npos);
}

TEST(RawCatalogTest, Sigv4CatalogIsAttachedWithTheS3KeysAsOAuthClient) {
  // DuckDB signs SigV4 only for AWS hosts; SeaweedFS's catalog issues a token for the S3 keys.
  registry::Registry registry = RestRegistry();
  registry.project.catalog.uri = "http://127.0.0.1:8111";
  registry.project.catalog.warehouse = "warehouse";
  registry.project.catalog.sigv4 = true;
  auto missing = RawCatalogAttachSql(registry);
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().kind, ErrorKind::kConfig);
  EXPECT_NE(missing.error().message.find("set [project.warehouse.s3] access_key_id"),
            std::string::npos)
      << missing.error().message;

  registry.project.warehouse.s3.access_key_id =
      registry::Secret("AWS_ACCESS_KEY_ID", "AKID1", true);
  registry.project.warehouse.s3.secret_access_key =
      registry::Secret("AWS_SECRET_ACCESS_KEY", "s3secret1", true);
  auto sql = RawCatalogAttachSql(registry);
  ASSERT_TRUE(sql) << sql.error().message;
  EXPECT_EQ(*sql,
            "ATTACH 'warehouse' AS \"polaris_aws_iceberg\" (TYPE iceberg, ENDPOINT "
            "'http://127.0.0.1:8111', CLIENT_ID 'AKID1', CLIENT_SECRET 's3secret1', "
            "OAUTH2_SERVER_URI 'http://127.0.0.1:8111/v1/oauth/tokens', READ_ONLY)");
  auto env = RawCatalogEnvironment(registry);
  ASSERT_TRUE(env) << env.error().message;
  EXPECT_EQ(env->at("DATABOX_RAW_CATALOG_CLIENT_ID"), "AKID1");
  EXPECT_EQ(env->at("DATABOX_RAW_CATALOG_CLIENT_SECRET"), "s3secret1");
  EXPECT_EQ(env->at("DATABOX_RAW_CATALOG_OAUTH2_SERVER_URI"),
            "http://127.0.0.1:8111/v1/oauth/tokens");
  EXPECT_EQ(env->at("DATABOX_RAW_CATALOG_SCOPE"), "");
  EXPECT_FALSE(env->contains("DATABOX_RAW_CATALOG_TOKEN"));
}

TEST(RawCatalogTest, BearerTokenGoesThroughATemporarySecret) {
  registry::Registry registry = RestRegistry();
  EXPECT_FALSE(RawCatalogTokenSecretSql(registry).value().has_value());
  registry.project.catalog.token = registry::Secret("CATALOG_TOKEN", "tok'123", true);
  auto secret = RawCatalogTokenSecretSql(registry);
  ASSERT_TRUE(secret) << secret.error().message;
  ASSERT_TRUE(secret->has_value());
  EXPECT_EQ(**secret,
            "CREATE OR REPLACE TEMPORARY SECRET \"polaris_aws_iceberg_token\" (TYPE iceberg, TOKEN "
            "'tok''123')");
  auto sql = RawCatalogAttachSql(registry);
  ASSERT_TRUE(sql) << sql.error().message;
  EXPECT_EQ(
      *sql,
      "ATTACH 'databox_lake' AS \"polaris_aws_iceberg\" (TYPE iceberg, ENDPOINT "
      "'http://127.0.0.1:8181/api/catalog', SECRET \"polaris_aws_iceberg_token\", READ_ONLY)");
  auto env = RawCatalogEnvironment(registry);
  ASSERT_TRUE(env) << env.error().message;
  EXPECT_EQ(env->at("DATABOX_RAW_CATALOG_TOKEN"), "tok'123");
  EXPECT_FALSE(env->contains("DATABOX_RAW_CATALOG_CLIENT_ID"));

  registry.project.catalog.token = registry::Secret("CATALOG_TOKEN", "", false);
  auto unset = RawCatalogAttachSql(registry);
  ASSERT_FALSE(unset);
  EXPECT_EQ(unset.error().kind, ErrorKind::kConfig);
}

}  // namespace
}  // namespace databox::refresh
