#include "catalog/sql/warehouse_recovery.h"

#include "fileio/location.h"
#include "iceberg/commit/commit_marker.h"

namespace databox::catalog::sql {
namespace {

//! The SQL catalog's rows as a recovery target.
class StoreTarget : public iceberg::RecoveryTarget {
 public:
  explicit StoreTarget(JdbcStore& store) : store_(store) {}

  Result<std::optional<std::string>> MetadataLocation(
      const iceberg::TableIdentifier& table) override {
    return store_.MetadataLocation(table);
  }
  Status Register(const iceberg::TableIdentifier& table, const std::string& location) override {
    DATABOX_ASSIGN_OR_RETURN(bool exists, store_.NamespaceExists(table.ns));
    if (!exists) DATABOX_RETURN_IF_ERROR(store_.CreateNamespace(table.ns, {}));
    return store_.InsertTable(table, location);
  }
  bool CanMoveForward(std::string& why) const override {
    why.clear();
    return true;
  }
  Status MoveForward(const iceberg::TableIdentifier& table, const std::string& from,
                     const std::string& to) override {
    return store_.SwapMetadataLocation({table, from, to});
  }

 private:
  JdbcStore& store_;
};

}  // namespace

Result<WarehouseRecovery> RecoverFromWarehouse(JdbcStore& store, fileio::FileIO& io,
                                               const std::string& warehouse,
                                               const RecoveryOptions& options) {
  const std::string root = fileio::JoinLocation(warehouse, store.catalog_name()) + "/";
  DATABOX_ASSIGN_OR_RETURN(auto folders, iceberg::FindTableFolders(io, root));
  DATABOX_ASSIGN_OR_RETURN(iceberg::CommitMarkers markers,
                           iceberg::ReadCommitMarkers(io, warehouse, store.catalog_name()));
  StoreTarget target(store);
  DATABOX_ASSIGN_OR_RETURN(WarehouseRecovery result,
                           iceberg::RecoverTables(target, io, folders, markers.committed, options));
  result.marker_files = markers.files;
  result.unreadable_markers = markers.unreadable;
  result.tables_under = root;
  std::vector<TablePointer> marked;
  for (const auto& t : result.tables) {
    if (t.applied) marked.push_back({t.table, *t.chosen});
  }
  // What recovery pointed the catalog at is committed now: marked so, like any commit.
  (void)iceberg::WriteCommitMarker(io, warehouse, store.catalog_name(), marked);
  return result;
}

}  // namespace databox::catalog::sql
