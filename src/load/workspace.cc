#include "load/workspace.h"

#include <cstdio>
#include <functional>

#include "duck/extensions.h"
#include "duck/quote.h"

namespace databox::load {

Result<std::optional<DuckDbS3Access>> Workspace::DuckDbS3() const {
  if (parts_.duckdb_s3 == nullptr) return std::nullopt;
  DATABOX_ASSIGN_OR_RETURN(DuckDbS3Access access, parts_.duckdb_s3->Get());
  return access;
}

namespace {

//! "databox_warehouse" for the warehouse-wide secret; one name per scope otherwise, so calling
//! PrepareDuckDbReads again replaces a table's secret instead of adding another.
std::string SecretName(const DuckDbS3Access& access) {
  if (access.scope.empty()) return "databox_warehouse";
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016zx", std::hash<std::string>{}(access.scope));
  return std::string("databox_table_") + hex;
}

}  // namespace

Status Workspace::PrepareDuckDbReads(duck::Connection& conn) const {
  if (parts_.duckdb_s3 == nullptr) return Ok();
  DATABOX_ASSIGN_OR_RETURN(std::vector<DuckDbS3Access> secrets, parts_.duckdb_s3->All());
  if (secrets.empty()) return Ok();
  DATABOX_RETURN_IF_ERROR(duck::LoadExtension(conn, "httpfs"));
  for (const DuckDbS3Access& access : secrets) {
    std::string sql =
        "CREATE OR REPLACE TEMPORARY SECRET " + SecretName(access) + " (TYPE s3, KEY_ID " +
        duck::QuoteLiteral(access.key_id) + ", SECRET " + duck::QuoteLiteral(access.secret) +
        ", REGION " + duck::QuoteLiteral(access.region) + ", URL_STYLE " +
        duck::QuoteLiteral(access.url_style) + ", USE_SSL " + (access.use_ssl ? "true" : "false");
    if (!access.session_token.empty()) {
      sql += ", SESSION_TOKEN " + duck::QuoteLiteral(access.session_token);
    }
    if (!access.endpoint.empty()) sql += ", ENDPOINT " + duck::QuoteLiteral(access.endpoint);
    if (!access.scope.empty()) sql += ", SCOPE " + duck::QuoteLiteral(access.scope);
    sql += ")";
    if (auto created = conn.Execute(sql); !created) {
      const std::string where = access.scope.empty()
                                    ? "the s3:// warehouse " + registry_->project.warehouse.location
                                    : "the table location " + access.scope;
      return MakeError(created.error().kind,
                       "cannot give DuckDB access to " + where + ": " + created.error().message);
    }
  }
  return Ok();
}

}  // namespace databox::load
