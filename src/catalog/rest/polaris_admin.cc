#include "catalog/rest/polaris_admin.h"

#include <nlohmann/json.hpp>

#include "catalog/rest/rest_error.h"
#include "common/encoding.h"

namespace databox::catalog::rest {
namespace {

using nlohmann::json;

std::string TrimSlashes(std::string_view text) {
  while (text.ends_with('/')) text.remove_suffix(1);
  return std::string(text);
}

//! The locations a listed catalog claims: default-base-location and allowedLocations.
std::vector<std::string> CatalogLocations(const json& catalog) {
  std::vector<std::string> out;
  if (auto props = catalog.find("properties"); props != catalog.end() && props->is_object()) {
    if (auto it = props->find("default-base-location"); it != props->end() && it->is_string()) {
      out.push_back(it->get<std::string>());
    }
  }
  if (auto storage = catalog.find("storageConfigInfo");
      storage != catalog.end() && storage->is_object()) {
    if (auto it = storage->find("allowedLocations"); it != storage->end() && it->is_array()) {
      for (const auto& location : *it) {
        if (location.is_string()) out.push_back(location.get<std::string>());
      }
    }
  }
  return out;
}

std::vector<std::string> SpecLocations(const PolarisCatalogSpec& spec) {
  std::vector<std::string> out = spec.allowed_locations;
  if (out.empty()) out.push_back(spec.default_base_location);
  return out;
}

}  // namespace

bool LocationsOverlap(std::string_view a, std::string_view b) {
  const std::string x = TrimSlashes(a);
  const std::string y = TrimSlashes(b);
  const std::string& shorter = x.size() <= y.size() ? x : y;
  const std::string& longer = x.size() <= y.size() ? y : x;
  if (!longer.starts_with(shorter)) return false;
  return longer.size() == shorter.size() || longer[shorter.size()] == '/';
}

Result<PolarisAdmin> PolarisAdmin::Make(PolarisAdminOptions options,
                                        std::shared_ptr<http::Transport> transport) {
  if (options.management_uri.empty()) {
    return MakeError(ErrorKind::kConfig,
                     "Polaris bootstrap needs the management API URI (…/api/management/v1)");
  }
  options.management_uri = TrimSlashes(options.management_uri);
  OAuth2Settings oauth;
  oauth.token_url = options.token_url;
  oauth.client_id = options.client_id;
  oauth.client_secret = options.client_secret;
  oauth.scope = options.scope;
  oauth.realm_header = "Polaris-Realm";
  oauth.realm = options.realm;
  DATABOX_ASSIGN_OR_RETURN(auto tokens, OAuth2Tokens::Make(std::move(oauth)));
  if (transport) {
    auto client = http::HttpClient::WithTransport(std::move(transport), options.http);
    return PolarisAdmin(std::move(options), std::move(client), std::move(tokens));
  }
  DATABOX_ASSIGN_OR_RETURN(auto client, http::HttpClient::Make(options.http));
  return PolarisAdmin(std::move(options), std::move(client), std::move(tokens));
}

std::string PolarisAdmin::CreateCatalogBody(const PolarisCatalogSpec& spec) {
  json storage = {{"storageType", "S3"}, {"allowedLocations", SpecLocations(spec)}};
  if (!spec.s3_endpoint.empty()) storage["endpoint"] = spec.s3_endpoint;
  if (spec.path_style_access) storage["pathStyleAccess"] = true;
  if (!spec.region.empty()) storage["region"] = spec.region;
  if (spec.role_arn) storage["roleArn"] = *spec.role_arn;
  if (spec.sts_unavailable) storage["stsUnavailable"] = true;
  json catalog = {{"type", "INTERNAL"},
                  {"name", spec.name},
                  {"properties", {{"default-base-location", spec.default_base_location}}},
                  {"storageConfigInfo", std::move(storage)}};
  return json{{"catalog", std::move(catalog)}}.dump();
}

Result<http::Response> PolarisAdmin::Call(http::Method method, const std::string& path,
                                          std::string body, std::string_view what) {
  DATABOX_ASSIGN_OR_RETURN(std::string token, tokens_.Token(client_));
  http::Request request;
  request.method = method;
  request.url = options_.management_uri + path;
  request.body = std::move(body);
  request.allow_error_status = true;
  request.headers.Set("Authorization", "Bearer " + token);
  request.headers.Set("Accept", "application/json");
  if (!request.body.empty()) request.headers.Set("Content-Type", "application/json");
  if (!options_.realm.empty()) request.headers.Set("Polaris-Realm", options_.realm);
  auto response = client_.Send(std::move(request));
  if (!response) return std::unexpected(ErrorFromTransport(response.error(), RestOp::kRead, what));
  if (response->status == 401 || response->status == 403) {
    return std::unexpected(ErrorFromResponse(*response, RestOp::kRead, what));
  }
  return response;
}

Result<BootstrapStep> PolarisAdmin::CreateStep(http::Method method, const std::string& path,
                                               std::string body, std::string action) {
  DATABOX_ASSIGN_OR_RETURN(auto response, Call(method, path, std::move(body), action));
  if (response.ok()) return BootstrapStep{std::move(action), response.status, "created"};
  if (response.status == 409) {
    return BootstrapStep{std::move(action), response.status, "already exists"};
  }
  return std::unexpected(ErrorFromResponse(response, RestOp::kCreate, action));
}

Result<std::vector<BootstrapStep>> PolarisAdmin::Bootstrap(const PolarisCatalogSpec& spec) {
  if (spec.name.empty() || spec.default_base_location.empty()) {
    return MakeError(ErrorKind::kConfig,
                     "Polaris bootstrap needs a catalog name and a default base location");
  }
  if (!spec.role_arn && !spec.sts_unavailable) {
    return MakeError(ErrorKind::kConfig,
                     "catalog '" + spec.name +
                         "': give a roleArn for credential vending, or stsUnavailable for an "
                         "S3-compatible store without STS");
  }
  std::vector<BootstrapStep> steps;
  const std::string list_what = "listing Polaris catalogs";
  DATABOX_ASSIGN_OR_RETURN(auto listed, Call(http::Method::kGet, "/catalogs", "", list_what));
  if (!listed.ok()) return std::unexpected(ErrorFromResponse(listed, RestOp::kRead, list_what));
  auto body = json::parse(listed.body, nullptr, /*allow_exceptions=*/false);
  if (!body.is_object() || !body.contains("catalogs") || !body["catalogs"].is_array()) {
    return MakeError(ErrorKind::kData, list_what + ": the answer holds no catalogs list");
  }
  steps.push_back({list_what, listed.status, "listed"});

  bool exists = false;
  const auto ours = SpecLocations(spec);
  for (const auto& catalog : body["catalogs"]) {
    const std::string name = catalog.value("name", "");
    const auto theirs = CatalogLocations(catalog);
    if (name == spec.name) {
      exists = true;
      const bool same =
          !theirs.empty() && TrimSlashes(theirs.front()) == TrimSlashes(spec.default_base_location);
      if (!same) {
        return MakeError(ErrorKind::kConfig,
                         "Polaris catalog '" + spec.name + "' exists with another location (" +
                             (theirs.empty() ? std::string("none") : theirs.front()) +
                             "); choose another name or location");
      }
      continue;
    }
    for (const auto& mine : ours) {
      for (const auto& other : theirs) {
        if (LocationsOverlap(mine, other)) {
          return MakeError(ErrorKind::kConfig, "location " + mine + " of catalog '" + spec.name +
                                                   "' overlaps " + other + " of Polaris catalog '" +
                                                   name + "'; choose a separate location");
        }
      }
    }
  }

  const std::string catalog_path = "/catalogs/" + UrlEncode(spec.name);
  if (exists) {
    steps.push_back({"create catalog '" + spec.name + "'", listed.status, "already exists"});
  } else {
    DATABOX_ASSIGN_OR_RETURN(auto step,
                             CreateStep(http::Method::kPost, "/catalogs", CreateCatalogBody(spec),
                                        "create catalog '" + spec.name + "'"));
    steps.push_back(std::move(step));
  }
  const json role = {{"catalogRole", {{"name", spec.catalog_role}}}};
  DATABOX_ASSIGN_OR_RETURN(
      auto role_step, CreateStep(http::Method::kPost, catalog_path + "/catalog-roles", role.dump(),
                                 "create catalog role '" + spec.catalog_role + "'"));
  steps.push_back(std::move(role_step));
  const json grant = {{"grant", {{"type", "catalog"}, {"privilege", "CATALOG_MANAGE_CONTENT"}}}};
  DATABOX_ASSIGN_OR_RETURN(
      auto grant_step,
      CreateStep(http::Method::kPut,
                 catalog_path + "/catalog-roles/" + UrlEncode(spec.catalog_role) + "/grants",
                 grant.dump(), "grant CATALOG_MANAGE_CONTENT to '" + spec.catalog_role + "'"));
  steps.push_back(std::move(grant_step));
  DATABOX_ASSIGN_OR_RETURN(auto assign_step,
                           CreateStep(http::Method::kPut,
                                      "/principal-roles/" + UrlEncode(spec.principal_role) +
                                          "/catalog-roles/" + UrlEncode(spec.name),
                                      role.dump(),
                                      "assign '" + spec.catalog_role + "' to principal role '" +
                                          spec.principal_role + "'"));
  steps.push_back(std::move(assign_step));
  return steps;
}

}  // namespace databox::catalog::rest
