#include "refresh/raw_catalog.h"

#include <optional>
#include <utility>

#include "duck/extensions.h"
#include "duck/quote.h"

namespace databox::refresh {
namespace {

//! The OAuth2 client of the registry's credential; nullopt without one.
struct OAuthClient {
  std::string id;
  std::string secret;
  std::string server_uri;
  std::string scope;
};

std::string WithoutTrailingSlash(std::string uri) {
  while (uri.ends_with('/')) uri.pop_back();
  return uri;
}

//! A SigV4 catalog's client for DuckDB: its iceberg extension signs SigV4 only for AWS hosts
//! ("Could not parse AWS service from host"), so it asks the catalog's token endpoint for a
//! bearer token with the warehouse's S3 key pair as client credentials, which SeaweedFS's
//! catalog issues (it knows the same keys).
Result<OAuthClient> SigV4ClientOf(const registry::ProjectSettings& project) {
  const registry::CatalogSettings& catalog = project.catalog;
  const registry::S3Settings& s3 = project.warehouse.s3;
  if (s3.access_key_id.empty() || !s3.access_key_id.resolved() || s3.secret_access_key.empty() ||
      !s3.secret_access_key.resolved()) {
    return MakeError(ErrorKind::kConfig,
                     "catalog '" + catalog.name +
                         "' (sigv4 = true): DuckDB reads it with the warehouse's S3 keys as "
                         "OAuth2 client credentials; set [project.warehouse.s3] access_key_id "
                         "and secret_access_key");
  }
  OAuthClient client{.id = s3.access_key_id.Reveal(),
                     .secret = s3.secret_access_key.Reveal(),
                     .server_uri = catalog.oauth2_server_uri,
                     .scope = catalog.scope};
  if (client.server_uri.empty()) {
    client.server_uri = WithoutTrailingSlash(catalog.uri) + "/v1/oauth/tokens";
  }
  return client;
}

Result<std::optional<OAuthClient>> ClientOf(const registry::ProjectSettings& project) {
  const registry::CatalogSettings& catalog = project.catalog;
  if (catalog.sigv4) {
    DATABOX_ASSIGN_OR_RETURN(OAuthClient client, SigV4ClientOf(project));
    return std::optional<OAuthClient>(std::move(client));
  }
  if (catalog.credential.empty()) return std::optional<OAuthClient>();
  const std::string& value = catalog.credential.Reveal();
  const auto colon = value.find(':');
  if (!catalog.credential.resolved() || colon == std::string::npos) {
    return MakeError(ErrorKind::kConfig, "catalog '" + catalog.name + "': the credential ${" +
                                             catalog.credential.env_var() +
                                             "} must be set as client_id:client_secret");
  }
  OAuthClient client{.id = value.substr(0, colon),
                     .secret = value.substr(colon + 1),
                     .server_uri = catalog.oauth2_server_uri,
                     .scope = catalog.scope};
  if (client.server_uri.empty()) {
    client.server_uri = WithoutTrailingSlash(catalog.uri) + "/v1/oauth/tokens";
  }
  return std::optional<OAuthClient>(std::move(client));
}

Status WithContext(Status status, const std::string& what) {
  if (status) return status;
  return MakeError(status.error().kind, what + ": " + status.error().message);
}

}  // namespace

bool AttachesRawCatalog(const registry::Registry& registry) {
  return registry.project.catalog.type == registry::CatalogType::kRest;
}

std::string RawCatalogName(const registry::Registry& registry) {
  return registry.project.analytics.catalog_alias + "_iceberg";
}

std::string RawCatalogWarehouse(const registry::Registry& registry) {
  const registry::CatalogSettings& catalog = registry.project.catalog;
  return catalog.warehouse.empty() ? catalog.name : catalog.warehouse;
}

Result<std::optional<std::string>> TokenOf(const registry::CatalogSettings& catalog) {
  if (catalog.token.empty()) return std::optional<std::string>();
  if (!catalog.token.resolved()) {
    return MakeError(ErrorKind::kConfig, "catalog '" + catalog.name + "': the token ${" +
                                             catalog.token.env_var() + "} is not set");
  }
  return std::optional<std::string>(catalog.token.Reveal());
}

std::string RawCatalogTokenSecret(const registry::Registry& registry) {
  return RawCatalogName(registry) + "_token";
}

Result<std::optional<std::string>> RawCatalogTokenSecretSql(const registry::Registry& registry) {
  DATABOX_ASSIGN_OR_RETURN(std::optional<std::string> token, TokenOf(registry.project.catalog));
  if (!token) return std::optional<std::string>();
  return std::optional<std::string>("CREATE OR REPLACE TEMPORARY SECRET " +
                                    duck::QuoteIdentifier(RawCatalogTokenSecret(registry)) +
                                    " (TYPE iceberg, TOKEN " + duck::QuoteLiteral(*token) + ")");
}

Result<std::string> RawCatalogAttachSql(const registry::Registry& registry) {
  const registry::CatalogSettings& catalog = registry.project.catalog;
  DATABOX_ASSIGN_OR_RETURN(std::optional<OAuthClient> client, ClientOf(registry.project));
  DATABOX_ASSIGN_OR_RETURN(std::optional<std::string> token, TokenOf(catalog));
  std::string auth = "AUTHORIZATION_TYPE 'none'";
  if (token) {
    auth = "SECRET " + duck::QuoteIdentifier(RawCatalogTokenSecret(registry));
  } else if (client) {
    auth = "CLIENT_ID " + duck::QuoteLiteral(client->id) + ", CLIENT_SECRET " +
           duck::QuoteLiteral(client->secret) + ", OAUTH2_SERVER_URI " +
           duck::QuoteLiteral(client->server_uri);
    if (!client->scope.empty()) auth += ", OAUTH2_SCOPE " + duck::QuoteLiteral(client->scope);
  }
  return "ATTACH " + duck::QuoteLiteral(RawCatalogWarehouse(registry)) + " AS " +
         duck::QuoteIdentifier(RawCatalogName(registry)) + " (TYPE iceberg, ENDPOINT " +
         duck::QuoteLiteral(WithoutTrailingSlash(catalog.uri)) + ", " + auth + ", READ_ONLY)";
}

Status AttachRawCatalog(load::Workspace& workspace, duck::Connection& conn) {
  const registry::Registry& registry = workspace.registry();
  if (!AttachesRawCatalog(registry)) {
    return MakeError(ErrorKind::kConfig, "DuckDB can attach only a REST catalog");
  }
  for (const char* extension : {"httpfs", "avro", "iceberg"}) {
    DATABOX_RETURN_IF_ERROR(duck::LoadExtension(conn, extension));
  }
  DATABOX_RETURN_IF_ERROR(workspace.PrepareDuckDbReads(conn));
  DATABOX_ASSIGN_OR_RETURN(std::optional<std::string> token_secret,
                           RawCatalogTokenSecretSql(registry));
  if (token_secret) {
    DATABOX_RETURN_IF_ERROR(
        WithContext(conn.Execute(*token_secret), "cannot give DuckDB the REST catalog's token"));
  }
  DATABOX_ASSIGN_OR_RETURN(std::string attach, RawCatalogAttachSql(registry));
  return WithContext(conn.Execute(attach), "cannot attach the REST catalog " +
                                               RawCatalogWarehouse(registry) + " at " +
                                               registry.project.catalog.uri + " in DuckDB");
}

Result<std::map<std::string, std::string>> RawCatalogEnvironment(
    const registry::Registry& registry) {
  std::map<std::string, std::string> env;
  if (!AttachesRawCatalog(registry)) return env;
  const registry::CatalogSettings& catalog = registry.project.catalog;
  DATABOX_ASSIGN_OR_RETURN(std::optional<OAuthClient> client, ClientOf(registry.project));
  DATABOX_ASSIGN_OR_RETURN(std::optional<std::string> token, TokenOf(catalog));
  env["DATABOX_RAW_CATALOG"] = "1";
  env["DATABOX_RAW_CATALOG_NAME"] = RawCatalogName(registry);
  env["DATABOX_RAW_CATALOG_WAREHOUSE"] = RawCatalogWarehouse(registry);
  env["DATABOX_RAW_CATALOG_ENDPOINT"] = WithoutTrailingSlash(catalog.uri);
  if (token) {
    env["DATABOX_RAW_CATALOG_TOKEN"] = *token;
  } else if (client) {
    env["DATABOX_RAW_CATALOG_CLIENT_ID"] = client->id;
    env["DATABOX_RAW_CATALOG_CLIENT_SECRET"] = client->secret;
    env["DATABOX_RAW_CATALOG_OAUTH2_SERVER_URI"] = client->server_uri;
    env["DATABOX_RAW_CATALOG_SCOPE"] = client->scope;
  } else {
    env["DATABOX_RAW_CATALOG_TOKEN"] = "unauthenticated";
  }
  return env;
}

}  // namespace databox::refresh
