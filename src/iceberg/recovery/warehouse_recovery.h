// Recovering a catalog's table pointers from the warehouse alone (`databox catalog recover
// --from-warehouse`; docs/catalog_recovery.md), for any catalog: the catalog-specific part is a
// RecoveryTarget (the SQL catalog's rows, catalog/sql/warehouse_recovery.h; any
// iceberg::Catalog with RegisterTable, iceberg/recovery/catalog_recovery_target.h).
//
// Every folder <root>/<namespace levels>/<table>/metadata/ holding *.metadata.json files is a
// table; its file is chosen by ChooseMetadataFile (metadata_recovery.h) and registered
// (creating the namespace if missing). A table the catalog already holds is left as it is,
// unless roll forward is asked for, the target can move a pointer, and the chosen file descends
// from the catalog's (its metadata-log names it): then the pointer is moved forward.
#pragma once

#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "common/error.h"
#include "fileio/file_io.h"
#include "iceberg/recovery/metadata_recovery.h"
#include "iceberg/spec/table_identifier.h"
#include "iceberg/spec/table_names.h"

namespace databox::iceberg {

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
  TableIdentifier table;
  RecoveryAction action = RecoveryAction::kNotRecovered;
  bool applied = false;                    //!< the catalog was written
  std::optional<std::string> chosen;       //!< the metadata file chosen
  std::string confirmed_by;                //!< how the chosen file is known to be committed
  std::optional<int64_t> snapshot_id;      //!< its current snapshot
  std::optional<std::string> catalog_had;  //!< the catalog's location before recovery
  std::string note;                        //!< why kept / not recovered, in words
  size_t metadata_files = 0;               //!< *.metadata.json files in the folder
  std::vector<RefusedMetadata> refused;
};

struct WarehouseRecovery {
  std::vector<TableRecovery> tables;  //!< sorted by table name
  size_t metadata_files = 0;          //!< examined in all
  size_t marker_files = 0;            //!< commit markers read
  std::vector<std::string> unreadable_markers;
  std::string tables_under;   //!< the folder whose table folders were read
  std::string evidence_note;  //!< what confirms a newest file, when not commit markers
};

struct RecoveryOptions {
  bool apply = false;                //!< write the catalog (default: dry run)
  bool include_unconfirmed = false;  //!< see MetadataChoiceOptions
  bool roll_forward = false;         //!< move existing tables forward (see the file comment)
};

//! The catalog recovery writes to.
class RecoveryTarget {
 public:
  virtual ~RecoveryTarget() = default;
  //! The metadata location the catalog holds for `table`; nullopt when it has no such table.
  virtual Result<std::optional<std::string>> MetadataLocation(const TableIdentifier& table) = 0;
  //! Adds `table` at `location`, creating its namespace (every level) when missing.
  virtual Status Register(const TableIdentifier& table, const std::string& location) = 0;
  //! Whether MoveForward is possible; when not, roll forward keeps the table with `why`.
  virtual bool CanMoveForward(std::string& why) const = 0;
  //! Moves `table`'s pointer from `from` to `to`, failing if it no longer points at `from`.
  virtual Status MoveForward(const TableIdentifier& table, const std::string& from,
                             const std::string& to) = 0;
};

//! One table folder and its *.metadata.json files.
struct TableFolder {
  TableIdentifier table;
  std::vector<std::string> metadata_files;
};

struct FolderLayout {
  //! A table folder named <table>_<uuid> (Project Nessie's layout) is table <table>.
  bool uuid_suffixed_folders = false;
  //! How the catalog's server names tables (a folder is named by the server's name, e.g.
  //! dbx_dlt_loads for databox's _dlt_loads: Catalog::table_names); the identity when null.
  const TableNames* names = nullptr;
};

//! Every table folder under `root` (a folder location, with or without a trailing '/'), sorted
//! by table name. Files in other shapes are ignored.
Result<std::vector<TableFolder>> FindTableFolders(fileio::FileIO& io, const std::string& root,
                                                  const FolderLayout& layout = {});

//! Chooses each folder's file and settles it with `target` as the file comment says.
//! `marker_confirmed`: the locations the catalog's commit markers name (may be empty).
Result<WarehouseRecovery> RecoverTables(RecoveryTarget& target, fileio::FileIO& io,
                                        std::span<const TableFolder> folders,
                                        const std::set<std::string>& marker_confirmed,
                                        const RecoveryOptions& options);

}  // namespace databox::iceberg
