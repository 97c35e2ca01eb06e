#include "load/existing_tables.h"

#include <set>

#include "normalize/data_type.h"

namespace databox::load {
namespace {

normalize::TableSchema SchemaOf(const std::string& name, const iceberg::Schema& schema) {
  const std::set<int32_t> key(schema.identifier_field_ids().begin(),
                              schema.identifier_field_ids().end());
  normalize::TableSchema out;
  out.name = name;
  for (const iceberg::NestedField& field : schema.fields()) {
    const auto type = normalize::DataTypeOfIceberg(field.type.ToString());
    if (!type) continue;
    normalize::Column column;
    column.name = field.name;
    column.data_type = *type;
    column.nullable = !field.required;
    column.primary_key = key.contains(field.id);
    column.variant = field.name.find("__v_") != std::string::npos;
    out.columns.push_back(std::move(column));
  }
  return out;
}

}  // namespace

Result<std::vector<normalize::TableSchema>> ExistingTables(iceberg::Catalog& catalog,
                                                           const std::string& ns,
                                                           const std::string& table) {
  std::vector<normalize::TableSchema> out;
  auto listed = catalog.ListTables(iceberg::Namespace{ns});
  if (!listed && listed.error().kind == ErrorKind::kNotFound) return out;
  if (!listed) return std::unexpected(listed.error());
  for (const iceberg::TableIdentifier& ident : *listed) {
    if (ident.name != table && !ident.name.starts_with(table + "__")) continue;
    DATABOX_ASSIGN_OR_RETURN(auto loaded, catalog.LoadTable(ident));
    const iceberg::Schema* schema = loaded.metadata.CurrentSchema();
    if (schema != nullptr) out.push_back(SchemaOf(ident.name, *schema));
  }
  return out;
}

}  // namespace databox::load
