// Rebuilding the SQL catalog's table rows from the warehouse alone (`databox catalog recover
// --from-warehouse`; docs/catalog_recovery.md): iceberg::RecoverTables (iceberg/
// warehouse_recovery.h) over the table folders under <warehouse>/<catalog name>/, with the
// catalog's commit markers (commit_marker.h) as evidence. Registering inserts the catalog row
// (creating the namespace if missing); roll forward swaps the pointer, compare-and-swap as any
// commit; what recovery pointed the catalog at gets a commit marker of its own.
//
// Tables placed outside the catalog's folder (an explicit location) and metadata moved by
// write.metadata.path are not found. Namespace properties are not in the warehouse: recovered
// namespaces get none.
#pragma once

#include <string>

#include "catalog/sql/jdbc_store.h"
#include "common/error.h"
#include "fileio/file_io.h"
#include "iceberg/recovery/warehouse_recovery.h"

namespace databox::catalog::sql {

using iceberg::RecoveryAction;
using iceberg::RecoveryActionName;
using iceberg::RecoveryOptions;
using iceberg::TableRecovery;
using iceberg::WarehouseRecovery;

//! Recovers `store`'s catalog's tables from `warehouse` into `store`.
Result<WarehouseRecovery> RecoverFromWarehouse(JdbcStore& store, fileio::FileIO& io,
                                               const std::string& warehouse,
                                               const RecoveryOptions& options);

}  // namespace databox::catalog::sql
