// The REST catalog attached natively in the analytics DuckDB (DuckDB's iceberg extension), so
// raw tables read the catalog's current snapshot at query time: a commit made after the last
// refresh (by databox or any other Iceberg writer) is visible without rebuilding anything.
// Only for a REST catalog: DuckDB cannot attach the embedded SQLite catalog, which keeps the
// raw views file of read_parquet views (analytics.h).
//
// The attached catalog is named <alias>_iceberg (RawCatalogName); the raw views file, attached
// as <alias>, then holds pass-through views  SELECT <current columns> FROM
// <alias>_iceberg.raw_<source>.<table>, next to the placeholders of declared tables the catalog
// does not hold yet and the platform views, so models read the same names in both modes.
//
// The statement (docs/services.md shows it for a hand-written session):
//   ATTACH '<warehouse>' AS <alias>_iceberg (TYPE iceberg, ENDPOINT '<catalog uri>', <auth>,
//                                           READ_ONLY)
// <warehouse> is the registry's catalog warehouse, else the catalog name. <auth> is
// AUTHORIZATION_TYPE 'none' without a credential or token; with the registry's bearer token,
// SECRET <alias>_iceberg_token, a TEMPORARY iceberg secret made first (RawCatalogTokenSecretSql:
// the ATTACH options have no TOKEN); else CLIENT_ID, CLIENT_SECRET,
// OAUTH2_SERVER_URI (the registry's, else <uri>/v1/oauth/tokens) and OAUTH2_SCOPE. The data
// files are read with the warehouse's S3 secret (Workspace::PrepareDuckDbReads) or with the
// credentials the catalog vends. httpfs, avro and iceberg load from the project's extension
// directory (duck/extensions.h): nothing is downloaded or installed into ~/.duckdb.
#pragma once

#include <map>
#include <string>

#include "common/error.h"
#include "duck/connection.h"
#include "load/workspace.h"
#include "registry/model.h"

namespace databox::refresh {

//! True when the analytics DuckDB attaches the catalog natively (a REST catalog).
bool AttachesRawCatalog(const registry::Registry& registry);

//! <alias>_iceberg: the name the attached REST catalog gets.
std::string RawCatalogName(const registry::Registry& registry);

//! The warehouse ATTACH names: the catalog's warehouse, else the catalog name.
std::string RawCatalogWarehouse(const registry::Registry& registry);

//! The ATTACH statement (see the file comment). It carries the OAuth2 client secret when one
//! is configured: execute it, never print it.
Result<std::string> RawCatalogAttachSql(const registry::Registry& registry);

//! With the registry's bearer `token`: the CREATE TEMPORARY SECRET the ATTACH names (it carries
//! the token: execute it, never print it); nullopt without a token.
Result<std::optional<std::string>> RawCatalogTokenSecretSql(const registry::Registry& registry);

//! Loads httpfs, avro and iceberg from the project's extension directory, creates the
//! warehouse's S3 secret (when the warehouse is s3://) and attaches the REST catalog READ_ONLY
//! as RawCatalogName. kConfig for an embedded catalog.
Status AttachRawCatalog(load::Workspace& workspace, duck::Connection& conn);

//! The variables SQLMesh's DuckDB connection needs for the same attach (empty for an embedded
//! catalog): DATABOX_RAW_CATALOG=1, DATABOX_RAW_CATALOG_NAME, DATABOX_RAW_CATALOG_WAREHOUSE,
//! DATABOX_RAW_CATALOG_ENDPOINT, and either DATABOX_RAW_CATALOG_TOKEN (the registry's bearer
//! token, else a placeholder: DuckDB's iceberg secret has no "no authorization"; a server with
//! authentication off ignores it) or DATABOX_RAW_CATALOG_CLIENT_ID, _CLIENT_SECRET,
//! _OAUTH2_SERVER_URI, _SCOPE.
Result<std::map<std::string, std::string>> RawCatalogEnvironment(
    const registry::Registry& registry);

}  // namespace databox::refresh
