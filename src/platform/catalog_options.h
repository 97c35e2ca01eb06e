// The registry's [project.catalog] as the plain options of the two catalog drivers
// (catalog/sql, catalog/rest), which never see the registry.
#pragma once

#include "catalog/rest/rest_catalog.h"
#include "catalog/sql/sql_catalog.h"
#include "common/error.h"
#include "registry/model.h"

namespace databox::platform {

//! Options from the registry: name, uri, warehouse, credential "client_id:client_secret"
//! (kConfig if it has no ':' or is unresolved), scope, oauth2_server_uri, realm, the client's
//! timeouts and retries. kConfig unless the catalog is type rest with a uri.
Result<catalog::rest::RestCatalogOptions> RestCatalogOptionsFromSettings(
    const registry::CatalogSettings& settings);

//! The embedded catalog: its name and database (`uri`), new tables under the project's
//! warehouse location.
catalog::sql::SqlCatalogOptions SqlCatalogOptionsFromSettings(
    const registry::ProjectSettings& project);

}  // namespace databox::platform
