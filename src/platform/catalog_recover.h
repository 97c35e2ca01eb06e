// `databox catalog recover --from-warehouse` for the registry's embedded SQL catalog: opens the
// warehouse's storage and the catalog database (created if lost) and runs
// catalog::sql::RecoverFromWarehouse (docs/catalog_recovery.md). Also the roll forward after a
// restore: every table the backup holds moves to the newest confirmed metadata file, and tables
// created after the backup are registered.
#pragma once

#include "catalog/sql/warehouse_recovery.h"
#include "common/error.h"
#include "registry/model.h"

namespace databox::platform {

//! kConfig for a REST catalog (its server holds the rows; register is not used yet).
Result<catalog::sql::WarehouseRecovery> RecoverCatalog(
    const registry::ProjectSettings& project, const catalog::sql::RecoveryOptions& options);

}  // namespace databox::platform
