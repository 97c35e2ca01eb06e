#include "registry/validation_notes.h"

namespace databox::registry {

std::vector<std::string> ValidationNotes(const Registry& registry) {
  std::vector<std::string> notes;
  const WarehouseSettings& warehouse = registry.project.warehouse;
  if (warehouse.is_s3 && warehouse.s3.access_key_id.empty() &&
      registry.project.catalog.type == CatalogType::kRest) {
    notes.push_back(
        "[project.warehouse.s3] has no S3 keys: storage credentials come from the REST catalog, "
        "vended with each table load (or from DATABOX_AWS_ACCESS_KEY_ID/"
        "DATABOX_AWS_SECRET_ACCESS_KEY when set)");
  }
  return notes;
}

}  // namespace databox::registry
