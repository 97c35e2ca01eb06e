// The Apache Polaris management API (/api/management/v1) for `databox catalog bootstrap`:
// idempotently creates the catalog on S3, a catalog role holding CATALOG_MANAGE_CONTENT and
// its assignment to a principal role. Each step reports the HTTP status it got; nothing
// reported contains a credential. Tested against a fake transport only: Polaris cannot be
// built on the development machines (docs/services.md).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "catalog/rest/oauth2.h"
#include "common/error.h"
#include "http/client.h"

namespace databox::catalog::rest {

struct PolarisAdminOptions {
  std::string management_uri;  //!< e.g. http://127.0.0.1:8181/api/management/v1
  std::string token_url;       //!< e.g. http://127.0.0.1:8181/api/catalog/v1/oauth/tokens
  std::string client_id;       //!< a principal allowed to manage catalogs (root)
  std::string client_secret;   //!< never logged
  std::string scope = "PRINCIPAL_ROLE:ALL";
  std::string realm;  //!< Polaris-Realm header; empty = default realm
  http::ClientOptions http;
};

//! The catalog `databox catalog bootstrap` makes.
struct PolarisCatalogSpec {
  std::string name;                            //!< Polaris catalog = REST warehouse
  std::string default_base_location;           //!< s3://bucket/prefix
  std::vector<std::string> allowed_locations;  //!< default: {default_base_location}
  std::string s3_endpoint;                     //!< empty = AWS
  bool path_style_access = false;
  std::string region;
  std::optional<std::string> role_arn;  //!< IAM role for credential vending (AWS STS)
  bool sts_unavailable = false;         //!< S3-compatible stores without STS (no vending)
  std::string catalog_role = "databox_writer";
  std::string principal_role = "service_admin";
};

//! One step of a bootstrap: what was done and the HTTP status that answered.
struct BootstrapStep {
  std::string action;   //!< "create catalog 'lake'"
  long status = 0;      //!< 201 created, 409 already there, 200 found, ...
  std::string outcome;  //!< "created", "already exists", "unchanged"
};

class PolarisAdmin {
 public:
  //! kConfig for a missing management URI or credential. `transport` replaces libcurl (tests).
  static Result<PolarisAdmin> Make(PolarisAdminOptions options,
                                   std::shared_ptr<http::Transport> transport = nullptr);

  //! Lists catalogs, refuses (kConfig) a location overlapping another catalog's or an existing
  //! catalog of this name at another location, then creates what is missing: catalog, catalog
  //! role, CATALOG_MANAGE_CONTENT grant, assignment to the principal role. Running it again
  //! changes nothing and reports "already exists" steps.
  Result<std::vector<BootstrapStep>> Bootstrap(const PolarisCatalogSpec& spec);

  //! The catalog creation body (management API CreateCatalogRequest).
  static std::string CreateCatalogBody(const PolarisCatalogSpec& spec);

 private:
  PolarisAdmin(PolarisAdminOptions options, http::HttpClient client, OAuth2Tokens tokens)
      : options_(std::move(options)), client_(std::move(client)), tokens_(std::move(tokens)) {}

  //! Sends an authenticated JSON request; the response whatever its status (transport
  //! errors and 401/403 excepted, which are errors).
  Result<http::Response> Call(http::Method method, const std::string& path, std::string body,
                              std::string_view what);
  //! A step whose 2xx means created and 409 means already there; other statuses are errors.
  Result<BootstrapStep> CreateStep(http::Method method, const std::string& path, std::string body,
                                   std::string action);

  PolarisAdminOptions options_;
  http::HttpClient client_;
  OAuth2Tokens tokens_;
};

//! True when one location contains the other (whole path segments: s3://b/a vs s3://b/ab is no
//! overlap).
bool LocationsOverlap(std::string_view a, std::string_view b);

}  // namespace databox::catalog::rest
