#include "load/workspace.h"

#include <system_error>

#include "catalog/rest/rest_catalog.h"
#include "catalog/sql/sql_catalog.h"
#include "duck/extensions.h"
#include "duck/quote.h"
#include "fileio/durable.h"
#include "fileio/local/local_file_io.h"
#include "fileio/routing_file_io.h"
#include "fileio/s3/s3_config.h"
#include "fileio/s3/s3_file_io.h"

namespace databox::load {
namespace {

//! Creates `dir` durably (a crash cannot lose it once a load has written state in it).
Status MakeFolder(const std::filesystem::path& dir, std::string_view what) {
  Status made = fileio::CreateFoldersDurably(dir);
  if (!made)
    return std::unexpected(made.error().WithContext("the " + std::string(what) + " folder"));
  return Ok();
}

}  // namespace

Result<std::unique_ptr<Workspace>> Workspace::Open(const registry::Registry& registry) {
  const registry::ProjectSettings& project = registry.project;
  DATABOX_RETURN_IF_ERROR(MakeFolder(project.state_dir, "state"));
  // The warehouse folder is not created here: local writes create their folders, and the
  // refresh preflight reports a warehouse that cannot be written.
  auto routing = std::make_shared<fileio::RoutingFileIO>();
  routing->Register(fileio::Scheme::kLocal, std::make_shared<fileio::LocalFileIO>());
  std::shared_ptr<fileio::s3::CredentialsProvider> s3_credentials;
  if (project.warehouse.is_s3) {
    // Static credentials from the registry or DATABOX_AWS_*; credentials vended by a REST
    // catalog are not wired into storage yet.
    DATABOX_ASSIGN_OR_RETURN(s3_credentials,
                             fileio::s3::CredentialsFromSettings(project.warehouse.s3));
    DATABOX_ASSIGN_OR_RETURN(
        auto s3, fileio::s3::S3FileIO::Make(fileio::s3::OptionsFromSettings(project.warehouse.s3),
                                            s3_credentials));
    routing->Register(fileio::Scheme::kS3, std::shared_ptr<fileio::FileIO>(std::move(s3)));
  }
  if (project.catalog.type == registry::CatalogType::kRest) {
    DATABOX_ASSIGN_OR_RETURN(auto options, catalog::rest::OptionsFromSettings(project.catalog));
    DATABOX_ASSIGN_OR_RETURN(auto rest, catalog::rest::RestCatalog::Open(std::move(options)));
    return std::unique_ptr<Workspace>(
        new Workspace(&registry, routing, std::move(rest), std::move(s3_credentials)));
  }
  catalog::sql::SqlCatalogOptions options;
  options.name = project.catalog.name;
  options.uri = project.catalog.uri;
  options.warehouse = project.warehouse.location;
  DATABOX_ASSIGN_OR_RETURN(auto sql_catalog, catalog::sql::SqlCatalog::Open(options, routing));
  return std::unique_ptr<Workspace>(
      new Workspace(&registry, routing, std::move(sql_catalog), std::move(s3_credentials)));
}

Result<std::optional<DuckDbS3Access>> Workspace::DuckDbS3() const {
  if (s3_credentials_ == nullptr) return std::nullopt;
  const fileio::s3::S3Options options =
      fileio::s3::OptionsFromSettings(registry_->project.warehouse.s3);
  DATABOX_ASSIGN_OR_RETURN(fileio::s3::Credentials credentials, s3_credentials_->Get());
  DuckDbS3Access access;
  // DuckDB wants the endpoint as host[:port] and TLS as a separate switch.
  access.endpoint = options.endpoint;
  if (access.endpoint.starts_with("http://")) {
    access.endpoint = access.endpoint.substr(std::string_view("http://").size());
    access.use_ssl = false;
  } else if (access.endpoint.starts_with("https://")) {
    access.endpoint = access.endpoint.substr(std::string_view("https://").size());
  }
  while (access.endpoint.ends_with('/')) access.endpoint.pop_back();
  access.url_style = options.path_style ? "path" : "vhost";
  access.region = options.region;
  access.key_id = credentials.access_key_id;
  access.secret = credentials.secret_access_key;
  access.session_token = credentials.session_token;
  return access;
}

Status Workspace::PrepareDuckDbReads(duck::Connection& conn) const {
  DATABOX_ASSIGN_OR_RETURN(std::optional<DuckDbS3Access> access, DuckDbS3());
  if (!access) return Ok();
  DATABOX_RETURN_IF_ERROR(duck::LoadExtension(conn, "httpfs"));
  std::string sql =
      "CREATE OR REPLACE TEMPORARY SECRET databox_warehouse (TYPE s3, KEY_ID " +
      duck::QuoteLiteral(access->key_id) + ", SECRET " + duck::QuoteLiteral(access->secret) +
      ", REGION " + duck::QuoteLiteral(access->region) + ", URL_STYLE " +
      duck::QuoteLiteral(access->url_style) + ", USE_SSL " + (access->use_ssl ? "true" : "false");
  if (!access->session_token.empty()) {
    sql += ", SESSION_TOKEN " + duck::QuoteLiteral(access->session_token);
  }
  if (!access->endpoint.empty()) sql += ", ENDPOINT " + duck::QuoteLiteral(access->endpoint);
  sql += ")";
  if (auto created = conn.Execute(sql); !created) {
    return MakeError(created.error().kind, "cannot give DuckDB access to the s3:// warehouse " +
                                               registry_->project.warehouse.location + ": " +
                                               created.error().message);
  }
  return Ok();
}

}  // namespace databox::load
