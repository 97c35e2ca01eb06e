#include "load/table_layout.h"

#include "common/edit_distance.h"
#include "iceberg/spec/transform.h"

namespace databox::load {
namespace {

//! Iceberg Java's and pyiceberg's partition field names.
std::string FieldName(const registry::PartitionTerm& term) {
  switch (term.transform) {
    case registry::LayoutTransform::kIdentity:
      return term.column;
    case registry::LayoutTransform::kYear:
      return term.column + "_year";
    case registry::LayoutTransform::kMonth:
      return term.column + "_month";
    case registry::LayoutTransform::kDay:
      return term.column + "_day";
    case registry::LayoutTransform::kHour:
      return term.column + "_hour";
    case registry::LayoutTransform::kBucket:
      return term.column + "_bucket";
    case registry::LayoutTransform::kTruncate:
      return term.column + "_trunc";
  }
  return term.column;
}

Result<const iceberg::NestedField*> ColumnOf(const iceberg::Schema& schema,
                                             const std::string& column, const std::string& what) {
  if (const iceberg::NestedField* field = schema.FindFieldByName(column)) return field;
  std::vector<std::string> names;
  for (const auto& field : schema.fields()) names.push_back(field.name);
  return MakeError(ErrorKind::kConfig,
                   what + ": the table has no column '" + column + "'" + DidYouMean(column, names));
}

}  // namespace

const registry::Resource* RootResourceOf(const registry::Source& source, const std::string& table) {
  for (const registry::Resource& resource : source.resources) {
    if (resource.name == table) return &resource;
  }
  return nullptr;
}

Result<TableLayout> LayoutFor(const registry::Resource* resource, const std::string& table,
                              const iceberg::Schema& schema) {
  TableLayout layout;
  if (resource == nullptr || resource->name != table) return layout;
  int32_t next_id = iceberg::kPartitionDataIdStart;
  for (const registry::PartitionTerm& term : resource->partition) {
    const std::string what = "partition term " + term.IcebergTransform() + "(" + term.column + ")";
    DATABOX_ASSIGN_OR_RETURN(const iceberg::NestedField* column,
                             ColumnOf(schema, term.column, what));
    DATABOX_ASSIGN_OR_RETURN(iceberg::Transform transform,
                             iceberg::Transform::Parse(term.IcebergTransform()));
    if (!transform.CanTransform(column->type)) {
      return MakeError(ErrorKind::kConfig, what + ": " + transform.ToString() +
                                               " cannot be applied to column '" + term.column +
                                               "' of type " + column->type.ToString());
    }
    const std::string name = FieldName(term);
    if (name != term.column && schema.FindFieldByName(name) != nullptr) {
      return MakeError(ErrorKind::kConfig, what + ": its partition field name '" + name +
                                               "' is a column of the table too");
    }
    layout.spec.fields.push_back(
        iceberg::PartitionField{column->id, next_id++, name, std::move(transform)});
  }
  if (resource->sort.empty()) return layout;
  layout.order.order_id = 1;
  for (const registry::SortTerm& term : resource->sort) {
    DATABOX_ASSIGN_OR_RETURN(const iceberg::NestedField* column,
                             ColumnOf(schema, term.column, "sort term " + term.column));
    layout.order.fields.push_back(iceberg::SortField{
        column->id, iceberg::Transform::Identity(),
        term.descending ? iceberg::SortDirection::kDesc : iceberg::SortDirection::kAsc,
        term.nulls_first ? iceberg::NullOrder::kNullsFirst : iceberg::NullOrder::kNullsLast});
  }
  return layout;
}

}  // namespace databox::load
