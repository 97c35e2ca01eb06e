// A RecoveryTarget (warehouse_recovery.h) over any iceberg::Catalog: registers a table through
// Catalog::RegisterTable (the REST spec's register endpoint for a REST catalog), creating its
// namespace level by level. It cannot move a pointer the catalog holds: a catalog's commits
// replace metadata, they do not swap a pointer to an existing file, so roll forward keeps
// such tables and says so.
#pragma once

#include "iceberg/catalog.h"
#include "iceberg/warehouse_recovery.h"

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
