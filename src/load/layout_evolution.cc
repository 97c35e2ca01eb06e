#include "load/layout_evolution.h"

#include "iceberg/commit/commit.h"
#include "iceberg/commit/layout_update.h"
#include "iceberg/commit/table_operations.h"
#include "iceberg/spec/schema_evolution.h"
#include "load/table_layout.h"

namespace databox::load {

Status FollowDeclaredLayout(Workspace& workspace, iceberg::Table& table,
                            const registry::Source& source, const iceberg::Schema& incoming) {
  const std::string& name = table.identifier().name;
  const registry::Resource* resource = RootResourceOf(source, name);
  if (resource == nullptr || (resource->partition.empty() && resource->sort.empty())) return Ok();
  const iceberg::TableMetadata& metadata = table.metadata();
  DATABOX_ASSIGN_OR_RETURN(iceberg::Schema grown,
                           iceberg::UnionByName(table.schema(), incoming, metadata.last_column_id));
  DATABOX_ASSIGN_OR_RETURN(TableLayout wanted, LayoutFor(resource, name, grown));
  const iceberg::PartitionSpec* spec = metadata.DefaultSpec();
  const iceberg::SortOrder* order = metadata.DefaultSortOrder();
  const bool new_spec =
      !resource->partition.empty() && (spec == nullptr || !iceberg::SameLayout(*spec, wanted.spec));
  const bool new_order =
      !resource->sort.empty() && (order == nullptr || order->fields != wanted.order.fields);
  if (!new_spec && !new_order) return Ok();
  if (!grown.SameStructure(table.schema())) {
    iceberg::SchemaUpdate evolve(table.identifier(), incoming);
    DATABOX_RETURN_IF_ERROR(
        iceberg::CommitChange(workspace.catalog(), *workspace.file_io(), evolve));
    DATABOX_RETURN_IF_ERROR(table.Refresh());
    DATABOX_ASSIGN_OR_RETURN(wanted, LayoutFor(resource, name, table.schema()));
  }
  iceberg::LayoutUpdate update(
      table.identifier(), new_spec ? wanted.spec : *table.metadata().DefaultSpec(),
      new_order ? std::optional<iceberg::SortOrder>(wanted.order) : std::nullopt);
  DATABOX_RETURN_IF_ERROR(iceberg::CommitChange(workspace.catalog(), *workspace.file_io(), update));
  return table.Refresh();
}

}  // namespace databox::load
