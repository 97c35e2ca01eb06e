// A RecoveryTarget (warehouse_recovery.h) over any iceberg::Catalog: registers a table through
// Catalog::RegisterTable (the REST spec's register endpoint for a REST catalog), creating its
// namespace level by level. A catalog's commits replace metadata; none points a table at an
// existing file, so moving a table forward drops it from the catalog (DropTable keeps its
// files) and registers the newer file, registering the old one again if that fails. Not
// atomic: a process killed in between leaves the table out of the catalog until the next
// recover registers it.
#pragma once

#include "iceberg/commit/catalog.h"
#include "iceberg/recovery/warehouse_recovery.h"

namespace databox::iceberg {

class CatalogRecoveryTarget : public RecoveryTarget {
 public:
  explicit CatalogRecoveryTarget(Catalog& catalog) : catalog_(catalog) {}

  Result<std::optional<std::string>> MetadataLocation(const TableIdentifier& table) override;
  Status Register(const TableIdentifier& table, const std::string& location) override;
  bool CanMoveForward(std::string& why) const override;
  Status MoveForward(const TableIdentifier& table, const std::string& from,
                     const std::string& to) override;

 private:
  Catalog& catalog_;
};

}  // namespace databox::iceberg
