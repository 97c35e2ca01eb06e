// `databox catalog`: `backup` / `restore` (cli/cmd_catalog_backup.h), `recover`
// (cli/cmd_catalog_recover.h), `list` / `describe` (cli/cmd_catalog_browse.h) and
// `databox catalog bootstrap`: creates the Polaris catalog the registry names (on its S3
// warehouse), a catalog role with CATALOG_MANAGE_CONTENT and its assignment to a principal
// role, through the Polaris management API (catalog/rest/polaris_admin.h). Idempotent. It
// first checks that a management API answers at all, so that a plain Iceberg REST server
// (such as the FALLBACK test server) is reported as such instead of as an auth failure.
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "catalog/rest/polaris_admin.h"
#include "catalog/rest/rest_catalog.h"
#include "cli/cmd_catalog_backup.h"
#include "cli/cmd_catalog_browse.h"
#include "cli/cmd_catalog_recover.h"
#include "cli/commands.h"
#include "cli/output.h"
#include "common/exit_code.h"
#include "http/client.h"
#include "platform/catalog_options.h"
#include "registry/registry.h"

namespace databox::cli {
namespace {

constexpr std::string_view kCatalogSuffix = "/api/catalog";
constexpr std::string_view kManagementPath = "/api/management/v1";
constexpr long kHttpUnauthorized = 401;
constexpr long kHttpForbidden = 403;

std::string TrimSlashes(std::string text) {
  while (text.ends_with('/')) text.pop_back();
  return text;
}

//! Polaris serves the management API beside the catalog API: <root>/api/catalog ->
//! <root>/api/management/v1; any other URI gets it at its scheme://host:port.
std::string ManagementUri(std::string catalog_uri) {
  catalog_uri = TrimSlashes(std::move(catalog_uri));
  if (catalog_uri.ends_with(kCatalogSuffix)) {
    return catalog_uri.substr(0, catalog_uri.size() - kCatalogSuffix.size()) +
           std::string(kManagementPath);
  }
  const auto scheme_end = catalog_uri.find("://");
  const auto path_start =
      catalog_uri.find('/', scheme_end == std::string::npos ? 0 : scheme_end + 3);
  return catalog_uri.substr(0, path_start) + std::string(kManagementPath);
}

//! Ok when something at `management_uri` behaves like Polaris' management API: GET /catalogs
//! without a token answers 2xx or asks for authentication (401/403).
Status ProbeManagementApi(const std::string& management_uri) {
  http::ClientOptions options;
  options.retry.max_attempts = 1;
  options.timeout = std::chrono::seconds(10);
  DATABOX_ASSIGN_OR_RETURN(auto client, http::HttpClient::Make(options));
  http::Request request;
  request.url = management_uri + "/catalogs";
  request.allow_error_status = true;
  auto response = client.Send(std::move(request));
  const std::string what = "no Polaris management API at " + management_uri;
  const std::string hint =
      ": `databox catalog bootstrap` needs Apache Polaris (the FALLBACK Iceberg REST server used "
      "in tests has no management API); pass --management-uri if Polaris serves it elsewhere";
  if (!response) {
    return MakeError(ErrorKind::kNetwork, what + " (" + response.error().message + ")" + hint);
  }
  if (response->ok() || response->status == kHttpUnauthorized ||
      response->status == kHttpForbidden) {
    return Ok();
  }
  return MakeError(ErrorKind::kConfig, what + " (GET /catalogs answered HTTP " +
                                           std::to_string(response->status) + ")" + hint);
}

//! What `databox catalog bootstrap` parsed.
struct BootstrapArgs {
  std::optional<std::string> management_uri;
  std::optional<std::string> catalog_role;
  std::optional<std::string> principal_role;
  std::optional<std::string> role_arn;
};

ExitCode Bootstrap(const GlobalOptions& global, const BootstrapArgs& args) {
  auto fail = [](ErrorKind kind, const std::string& message) {
    Err("databox catalog bootstrap: " + message + "\n");
    return kind == ErrorKind::kConfig ? ExitCode::kUsage : ExitCode::kRunFailed;
  };
  auto loaded = registry::LoadRegistry(global.config_path);
  if (!loaded) return fail(ErrorKind::kConfig, loaded.error().message);
  const registry::ProjectSettings& project = loaded->project;
  if (project.catalog.type != registry::CatalogType::kRest) {
    return fail(ErrorKind::kConfig,
                "the registry's catalog is embedded (type = \"sql\"); bootstrap applies to a "
                "Polaris catalog: set [project.catalog] type = \"rest\"");
  }
  if (!project.warehouse.is_s3) {
    return fail(ErrorKind::kConfig,
                "the Polaris catalog needs an s3:// [project.warehouse] location, not " +
                    project.warehouse.location);
  }
  auto rest = platform::RestCatalogOptionsFromSettings(project.catalog, project.warehouse.s3);
  if (!rest) return fail(rest.error().kind, rest.error().message);

  const std::string management =
      TrimSlashes(args.management_uri.value_or(ManagementUri(rest->uri)));
  if (auto probed = ProbeManagementApi(management); !probed) {
    return fail(probed.error().kind, probed.error().message);
  }
  if (rest->client_id.empty()) {
    return fail(ErrorKind::kConfig,
                "[project.catalog] credential is not set: bootstrap authenticates as a Polaris "
                "principal that may create catalogs (credential = \"${POLARIS_CREDENTIAL}\" "
                "holding client_id:client_secret)");
  }
  catalog::rest::PolarisAdminOptions options;
  options.management_uri = management;
  options.token_url = rest->oauth2_server_uri.empty() ? TrimSlashes(rest->uri) + "/v1/oauth/tokens"
                                                      : rest->oauth2_server_uri;
  options.client_id = rest->client_id;
  options.client_secret = rest->client_secret;
  options.scope = rest->scope;
  options.realm = rest->realm;
  auto admin = catalog::rest::PolarisAdmin::Make(std::move(options));
  if (!admin) return fail(admin.error().kind, admin.error().message);

  catalog::rest::PolarisCatalogSpec spec;
  spec.name = rest->warehouse;
  spec.default_base_location = project.warehouse.location;
  spec.s3_endpoint = project.warehouse.s3.endpoint;
  spec.path_style_access = project.warehouse.s3.path_style;
  spec.region = project.warehouse.s3.region;
  spec.role_arn = args.role_arn;
  // An S3-compatible store (an endpoint is set) has no STS unless a role is given for it.
  spec.sts_unavailable = !spec.s3_endpoint.empty() && !spec.role_arn;
  if (auto role = args.catalog_role) spec.catalog_role = *role;
  if (auto role = args.principal_role) spec.principal_role = *role;

  Out("Bootstrapping Polaris catalog '" + spec.name + "' at " + spec.default_base_location +
      " (management API " + management + ")\n");
  auto steps = admin->Bootstrap(spec);
  if (!steps) return fail(steps.error().kind, steps.error().message);
  for (const auto& step : *steps) {
    Out("  " + step.action + ": HTTP " + std::to_string(step.status) + " " + step.outcome + "\n");
  }
  Out("catalog '" + spec.name + "' is ready\n");
  return ExitCode::kOk;
}

//! What the parsed subcommand chose.
struct CatalogArgs {
  Runner chosen;
  BootstrapArgs bootstrap;
};

}  // namespace

Command CatalogCommand() {
  return Command{
      "catalog",
      "Browse the catalog's tables; back up, restore and recover the catalog; set up Polaris",
      "backup and restore: the embedded SQL catalog (type = \"sql\") through SQLite's backup\n"
      "API; a REST catalog through pg_dump / pg_restore of its server's PostgreSQL database\n"
      "([project.catalog] backup_database_url). `recover --from-warehouse` rebuilds the SQL\n"
      "catalog from the warehouse's metadata files alone, and `restore --roll-forward` keeps the\n"
      "commits made after the backup: both for the embedded catalog only (registering a REST\n"
      "catalog's tables from the warehouse is not supported). docs/catalog_recovery.md.",
      [](CLI::App& app) -> Runner {
        app.require_subcommand(1);
        CLI::App* bootstrap = app.add_subcommand(
            "bootstrap", "Create the Polaris catalog, its writer role and the role's grant");
        bootstrap->footer(
            "Creates the Polaris catalog named by [project.catalog] warehouse on the\n"
            "s3:// [project.warehouse] location, the catalog role (default databox_writer) with\n"
            "CATALOG_MANAGE_CONTENT, and assigns it to the principal role (default "
            "service_admin).\n"
            "Idempotent: existing pieces are reported as already there. Refuses a location that\n"
            "overlaps another catalog's. Prints each step's HTTP status, never credentials.\n"
            "The management API defaults to <root>/api/management/v1 for a catalog uri\n"
            "<root>/api/catalog.");
        auto all = std::make_shared<CatalogArgs>();
        BootstrapArgs* args = &all->bootstrap;
        bootstrap
            ->add_option("--management-uri", args->management_uri,
                         "Polaris management API base (…/api/management/v1)")
            ->option_text("URL");
        bootstrap
            ->add_option("--catalog-role", args->catalog_role,
                         "catalog role to create (default databox_writer)")
            ->option_text("NAME");
        bootstrap
            ->add_option("--principal-role", args->principal_role,
                         "principal role that gets it (default service_admin)")
            ->option_text("NAME");
        bootstrap
            ->add_option("--role-arn", args->role_arn,
                         "IAM role Polaris assumes to vend S3 credentials")
            ->option_text("ARN");
        bootstrap->callback([all] {
          all->chosen = [b = all->bootstrap](const GlobalOptions& g) { return Bootstrap(g, b); };
        });
        DeclareBackupAndRestore(app, all->chosen);
        DeclareRecover(app, all->chosen);
        CatalogBrowseRunner browse = DeclareCatalogBrowse(app);
        // require_subcommand(1): list and describe answer through `browse`; any other
        // subcommand's callback has set `chosen` once parsing is done.
        return [all, browse](const GlobalOptions& global) {
          if (auto code = browse(global)) return *code;
          return all->chosen(global);
        };
      }};
}

}  // namespace databox::cli
