// Rebuilding the SQL catalog's table rows from the warehouse alone (`databox catalog recover
// --from-warehouse`; docs/catalog_recovery.md). Every table folder under
// <warehouse>/<catalog name>/<namespace levels>/<table>/metadata/ is a table; its metadata file
// is chosen by iceberg::ChooseMetadataFile with the catalog's commit markers
// (commit_marker.h) as evidence, and registered by inserting the catalog row (creating the
// namespace if missing). A table the catalog already holds is left as it is, unless roll
// forward is asked for and the chosen file descends from the catalog's (its metadata-log names
// it): then the pointer is swapped forward, compare-and-swap as any commit.
//
// Tables placed outside the catalog's folder (an explicit location) and metadata moved by
// write.metadata.path are not found. Namespace properties are not in the warehouse: recovered
// namespaces get none.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "catalog/sql/jdbc_store.h"
#include "common/error.h"
#include "fileio/file_io.h"
#include "iceberg/metadata_recovery.h"
#include "iceberg/table_identifier.h"

namespace databox::catalog::sql {

enum class RecoveryAction {
  kRegister,      //!< not in the catalog: registered (or would be, in a dry run)
  kRollForward,   //!< in the catalog at an ancestor of the chosen file: moved forward
  kUpToDate,      //!< the catalog already points at the chosen file
  kKept,          //!< the catalog points elsewhere and is left alone (see `note`)
  kNotRecovered,  //!< no metadata file qualifies
};

std::string_view RecoveryActionName(RecoveryAction action);

//! What recovery did (or would do) for one table folder.
struct TableRecovery {
  iceberg::TableIdentifier table;
  RecoveryAction action = RecoveryAction::kNotRecovered;
  bool applied = false;                    //!< the catalog row was written
  std::optional<std::string> chosen;       //!< the metadata file chosen
  std::string confirmed_by;                //!< how the chosen file is known to be committed
  std::optional<int64_t> snapshot_id;      //!< its current snapshot
  std::optional<std::string> catalog_had;  //!< the catalog's location before recovery
  std::string note;                        //!< why kept / not recovered, in words
  size_t metadata_files = 0;               //!< *.metadata.json files in the folder
  std::vector<iceberg::RefusedMetadata> refused;
};

struct WarehouseRecovery {
  std::vector<TableRecovery> tables;  //!< sorted by table name
  size_t metadata_files = 0;          //!< examined in all
  size_t marker_files = 0;            //!< commit markers read
  std::vector<std::string> unreadable_markers;
};

struct RecoveryOptions {
  bool apply = false;                //!< write the catalog rows (default: dry run)
  bool include_unconfirmed = false;  //!< see iceberg::MetadataChoiceOptions
  bool roll_forward = false;         //!< move existing tables forward (see the file comment)
};

//! Recovers `catalog_name`'s tables from `warehouse` into `store`.
Result<WarehouseRecovery> RecoverFromWarehouse(JdbcStore& store, fileio::FileIO& io,
                                               const std::string& warehouse,
                                               const RecoveryOptions& options);

}  // namespace databox::catalog::sql
