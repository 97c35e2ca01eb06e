// `databox catalog recover --from-warehouse`: opens the warehouse's storage and the registry's
// catalog and runs the recovery (docs/catalog_recovery.md). The embedded SQL catalog
// (catalog::sql::RecoverFromWarehouse; its database is created if lost) reads the table
// folders under <warehouse>/<catalog name>/ and its commit markers. A REST catalog
// (iceberg::CatalogRecoveryTarget: the spec's register endpoint) reads the folders under
// `tables_under` (the server's warehouse location; default: the registry's warehouse
// location), where a folder <table>_<uuid> (Nessie's layout) is table <table>; the commit
// markers Databox writes after each REST commit (under the registry's warehouse location)
// confirm newest files; without any, --apply needs --include-unconfirmed. Also the roll
// forward after a restore of the SQL catalog: every table the backup holds moves to the newest
// confirmed metadata file, and tables created after the backup are registered.
#pragma once

#include <optional>
#include <string>

#include "common/error.h"
#include "iceberg/recovery/warehouse_recovery.h"
#include "registry/model.h"

namespace databox::platform {

//! kConfig when the REST server does not offer the register endpoint (checked before anything
//! is written) or `tables_under` is given for the SQL catalog.
Result<iceberg::WarehouseRecovery> RecoverCatalog(
    const registry::ProjectSettings& project, const iceberg::RecoveryOptions& options,
    const std::optional<std::string>& tables_under = std::nullopt);

}  // namespace databox::platform
