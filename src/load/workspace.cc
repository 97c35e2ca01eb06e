#include "load/workspace.h"

#include "duck/extensions.h"

namespace databox::load {

Result<std::optional<DuckDbS3Access>> Workspace::DuckDbS3() const {
  if (parts_.duckdb_s3 == nullptr) return std::nullopt;
  DATABOX_ASSIGN_OR_RETURN(DuckDbS3Access access, parts_.duckdb_s3->Get());
  return access;
}

Status Workspace::PrepareDuckDbReads(duck::Connection& conn) const {
  if (parts_.duckdb_s3 == nullptr) return Ok();
  DATABOX_ASSIGN_OR_RETURN(std::vector<DuckDbS3Access> secrets, parts_.duckdb_s3->All());
  if (secrets.empty()) return Ok();
  DATABOX_RETURN_IF_ERROR(duck::LoadExtension(conn, "httpfs"));
  for (const DuckDbS3Access& access : secrets) {
    if (auto created = CreateDuckDbS3Secret(conn, access); !created) {
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
