#include "load/duckdb_s3.h"

#include <cstdio>
#include <functional>

#include "duck/quote.h"

namespace databox::load {
namespace {

//! "databox_warehouse" for the warehouse-wide secret; one name per scope otherwise.
std::string SecretName(const DuckDbS3Access& access) {
  if (access.scope.empty()) return "databox_warehouse";
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016zx", std::hash<std::string>{}(access.scope));
  return std::string("databox_table_") + hex;
}

}  // namespace

Status CreateDuckDbS3Secret(duck::Connection& conn, const DuckDbS3Access& access) {
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
  return conn.Execute(sql);
}

}  // namespace databox::load
