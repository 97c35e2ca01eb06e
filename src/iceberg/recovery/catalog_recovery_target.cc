#include "iceberg/recovery/catalog_recovery_target.h"

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
  why.clear();
  return true;
}

Status CatalogRecoveryTarget::MoveForward(const TableIdentifier& table, const std::string& from,
                                          const std::string& to) {
  DATABOX_ASSIGN_OR_RETURN(auto now, MetadataLocation(table));
  if (now != from) {
    return MakeError(ErrorKind::kConflict, table.ToString() + " moved meanwhile (now at " +
                                               now.value_or("no file") + ", not " + from +
                                               "): left as it is");
  }
  // No call of the catalog points a table at an existing file: forget the table (its files
  // stay) and register the newer file. A process killed in between leaves the table out of the
  // catalog until the next recover registers it.
  DATABOX_RETURN_IF_ERROR(catalog_.DropTable(table));
  Status registered = Register(table, to);
  if (registered) return Ok();
  Status back = Register(table, from);
  return MakeError(
      registered.error().kind,
      "moving " + table.ToString() + " forward: registering " + to + " failed (" +
          registered.error().message + "); " +
          (back ? "it points at " + from + " again"
                : "registering " + from + " again failed too (" + back.error().message +
                      "): the table is missing from the catalog until `databox "
                      "catalog recover --from-warehouse --apply` registers it"));
}

}  // namespace databox::iceberg
