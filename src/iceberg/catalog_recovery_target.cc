#include "iceberg/catalog_recovery_target.h"

namespace databox::iceberg {

Result<std::optional<std::string>> CatalogRecoveryTarget::MetadataLocation(
    const TableIdentifier& table) {
  auto loaded = catalog_.LoadTable(table);
  if (!loaded) {
    if (loaded.error().kind == ErrorKind::kNotFound) return std::optional<std::string>{};
    return std::unexpected(loaded.error());
  }
  return std::optional<std::string>(loaded->metadata_location);
}

Status CatalogRecoveryTarget::Register(const TableIdentifier& table, const std::string& location) {
  Namespace level;
  for (const std::string& part : table.ns) {
    level.push_back(part);
    DATABOX_ASSIGN_OR_RETURN(bool exists, catalog_.NamespaceExists(level));
    if (exists) continue;
    Status created = catalog_.CreateNamespace(level, {});
    if (!created && created.error().kind != ErrorKind::kAlreadyExists) return created;
  }
  DATABOX_ASSIGN_OR_RETURN(auto registered, catalog_.RegisterTable(table, location));
  if (registered.metadata_location != location) {
    return MakeError(ErrorKind::kData, "registering " + table.ToString() + " at " + location +
                                           ": the catalog answered with " +
                                           registered.metadata_location);
  }
  return Ok();
}

bool CatalogRecoveryTarget::CanMoveForward(std::string& why) const {
  why =
      "this catalog cannot point a table at an existing metadata file (no swap); drop the "
      "table from the catalog (its files stay) and recover again to register the newer file";
  return false;
}

Status CatalogRecoveryTarget::MoveForward(const TableIdentifier& table, const std::string& from,
                                          const std::string& to) {
  (void)from;
  (void)to;
  return MakeError(ErrorKind::kInternal, "cannot move " + table.ToString() + " forward");
}

}  // namespace databox::iceberg
