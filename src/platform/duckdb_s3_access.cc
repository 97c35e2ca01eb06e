#include "platform/duckdb_s3_access.h"

#include <string_view>

namespace databox::platform {

load::DuckDbS3Access S3DuckDbAccess::Access(const fileio::s3::Credentials& credentials) const {
  load::DuckDbS3Access access;
  access.endpoint = options_.endpoint;
  if (access.endpoint.starts_with("http://")) {
    access.endpoint = access.endpoint.substr(std::string_view("http://").size());
    access.use_ssl = false;
  } else if (access.endpoint.starts_with("https://")) {
    access.endpoint = access.endpoint.substr(std::string_view("https://").size());
  }
  while (access.endpoint.ends_with('/')) access.endpoint.pop_back();
  access.url_style = options_.path_style ? "path" : "vhost";
  access.region = options_.region;
  access.key_id = credentials.access_key_id;
  access.secret = credentials.secret_access_key;
  access.session_token = credentials.session_token;
  return access;
}

Result<load::DuckDbS3Access> S3DuckDbAccess::Get() const {
  DATABOX_ASSIGN_OR_RETURN(fileio::s3::Credentials credentials, credentials_->Get());
  return Access(credentials);
}

Result<std::vector<load::DuckDbS3Access>> S3DuckDbAccess::All() const {
  std::vector<load::DuckDbS3Access> out;
  if (tables_ == nullptr || tables_->HasFallback()) {
    DATABOX_ASSIGN_OR_RETURN(load::DuckDbS3Access warehouse, Get());
    out.push_back(std::move(warehouse));
  }
  if (tables_ == nullptr) return out;
  for (const auto& [prefix, credentials] : tables_->Scoped()) {
    load::DuckDbS3Access scoped = Access(credentials);
    scoped.scope = prefix;
    out.push_back(std::move(scoped));
  }
  return out;
}

}  // namespace databox::platform
