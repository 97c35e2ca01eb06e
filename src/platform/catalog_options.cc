#include "platform/catalog_options.h"

#include "common/failpoint.h"
#include "common/redact.h"
#include "http/client.h"
#include "iceberg/commit/commit_marker.h"
#include "platform/s3_settings.h"

namespace databox::platform {

Result<catalog::rest::RestCatalogOptions> RestCatalogOptionsFromSettings(
    const registry::CatalogSettings& settings, const registry::S3Settings& s3) {
  if (settings.type != registry::CatalogType::kRest) {
    return MakeError(ErrorKind::kConfig, "catalog '" + settings.name + "' is not of type rest");
  }
  if (settings.uri.empty()) {
    return MakeError(ErrorKind::kConfig,
                     "catalog '" + settings.name + "': type rest needs uri (the REST base URI)");
  }
  catalog::rest::RestCatalogOptions options;
  options.name = settings.name;
  options.uri = settings.uri;
  options.warehouse = settings.warehouse.empty() ? settings.name : settings.warehouse;
  if (!settings.scope.empty()) options.scope = settings.scope;
  options.oauth2_server_uri = settings.oauth2_server_uri;
  options.realm = settings.realm;
  options.http = http::ClientOptionsFromSettings(settings.http);
  auto names = iceberg::TableNames::Make(settings.underscore_table_prefix);
  if (!names) {
    return std::unexpected(names.error().WithContext("catalog '" + settings.name + "'"));
  }
  options.table_names = std::move(*names);
  if (!settings.credential.empty()) {
    if (!settings.credential.resolved()) {
      return MakeError(ErrorKind::kConfig, "catalog '" + settings.name + "': the credential ${" +
                                               settings.credential.env_var() +
                                               "} is not set in the environment or .env file");
    }
    const std::string& value = settings.credential.Reveal();
    const auto colon = value.find(':');
    if (colon == std::string::npos) {
      return MakeError(ErrorKind::kConfig, "catalog '" + settings.name + "': the credential ${" +
                                               settings.credential.env_var() +
                                               "} must be \"client_id:client_secret\"");
    }
    options.client_id = value.substr(0, colon);
    options.client_secret = value.substr(colon + 1);
    RegisterSecret(options.client_secret);
  }
  if (!settings.token.empty()) {
    if (!settings.token.resolved()) {
      return MakeError(ErrorKind::kConfig, "catalog '" + settings.name + "': the token ${" +
                                               settings.token.env_var() +
                                               "} is not set in the environment or .env file");
    }
    options.bearer_token = settings.token.Reveal();
    RegisterSecret(options.bearer_token);
  }
  if (settings.sigv4) {
    // The same keys S3FileIO signs with (registered with the redactor there).
    auto provider = S3CredentialsFromSettings(s3);
    if (!provider) {
      return MakeError(ErrorKind::kConfig, "catalog '" + settings.name +
                                               "' signs requests with SigV4 (sigv4 = true): " +
                                               provider.error().message);
    }
    DATABOX_ASSIGN_OR_RETURN(fileio::s3::Credentials keys, (*provider)->Get());
    options.sigv4 = http::AwsSigning{
        .access_key_id = keys.access_key_id,
        .secret_access_key = keys.secret_access_key,
        .session_token = keys.session_token,
        .region = settings.signing_region.empty() ? s3.region : settings.signing_region,
        .service = settings.signing_name};
    if (options.sigv4->region.empty()) options.sigv4->region = "us-east-1";
  }
  return options;
}

catalog::sql::SqlCatalogOptions SqlCatalogOptionsFromSettings(
    const registry::ProjectSettings& project) {
  catalog::sql::SqlCatalogOptions options;
  options.name = project.catalog.name;
  options.uri = project.catalog.uri;
  options.warehouse = project.warehouse.location;
  return options;
}

std::function<void(std::span<const iceberg::TablePointer>)> CommitMarkerWriter(
    std::shared_ptr<fileio::FileIO> file_io, const registry::ProjectSettings& project) {
  return [file_io = std::move(file_io), warehouse = project.warehouse.location,
          name = project.catalog.name](std::span<const iceberg::TablePointer> committed) {
    Failpoint("before-commit-marker");
    (void)iceberg::WriteCommitMarker(*file_io, warehouse, name, committed);
  };
}

}  // namespace databox::platform
