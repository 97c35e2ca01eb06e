// The registry's [project.catalog] as the plain options of the two catalog drivers
// (catalog/sql, catalog/rest), which never see the registry.
#pragma once

#include <functional>
#include <memory>
#include <span>

#include "catalog/rest/rest_catalog.h"
#include "catalog/sql/sql_catalog.h"
#include "common/error.h"
#include "fileio/file_io.h"
#include "registry/model.h"

namespace databox::platform {

//! Options from the registry: name, uri, warehouse, credential "client_id:client_secret"
//! (kConfig if it has no ':' or is unresolved), scope, oauth2_server_uri, realm, the client's
//! timeouts and retries; with sigv4, the signing name, the region (signing_region, else the
//! warehouse's S3 region) and the keys of `s3` (the registry's, else DATABOX_AWS_*; kConfig when
//! neither has them). kConfig unless the catalog is type rest with a uri.
Result<catalog::rest::RestCatalogOptions> RestCatalogOptionsFromSettings(
    const registry::CatalogSettings& settings, const registry::S3Settings& s3);

//! RestCatalogOptions::on_committed for a REST catalog of `project`: writes the commit markers
//! the embedded catalog writes itself (iceberg/commit/commit_marker.h) under the project's
//! warehouse location, through `file_io`; best effort (the commit has landed whatever happens
//! there, and a missing marker only leaves the file unconfirmed for recovery).
std::function<void(std::span<const iceberg::TablePointer>)> CommitMarkerWriter(
    std::shared_ptr<fileio::FileIO> file_io, const registry::ProjectSettings& project);

//! The embedded catalog: its name and database (`uri`), new tables under the project's
//! warehouse location.
catalog::sql::SqlCatalogOptions SqlCatalogOptionsFromSettings(
    const registry::ProjectSettings& project);

}  // namespace databox::platform
