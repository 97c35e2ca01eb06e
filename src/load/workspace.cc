#include "load/workspace.h"

#include "duck/extensions.h"
#include "duck/quote.h"

namespace databox::load {

Result<std::optional<DuckDbS3Access>> Workspace::DuckDbS3() const {
  if (parts_.duckdb_s3 == nullptr) return std::nullopt;
  DATABOX_ASSIGN_OR_RETURN(DuckDbS3Access access, parts_.duckdb_s3->Get());
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
