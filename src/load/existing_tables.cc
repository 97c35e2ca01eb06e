#include "load/existing_tables.h"

#include <algorithm>
#include <optional>
#include <set>
#include <string_view>
#include <utility>

#include "normalize/data_type.h"
#include "normalize/naming.h"

namespace databox::load {
namespace {

constexpr std::string_view kVariantInfix = "__v_";

//! The dlt type of the Iceberg column `field` of `schema`, and whether it is a variant column:
//! `<column>__v_<type>` beside `<column>`, of a type stored as `field` is.
std::optional<std::pair<normalize::DataType, bool>> TypeOf(const iceberg::Schema& schema,
                                                           const iceberg::NestedField& field) {
  const std::string stored = field.type.ToString();
  const auto type = normalize::DataTypeOfIceberg(stored);
  if (!type) return std::nullopt;
  const auto infix = field.name.rfind(kVariantInfix);
  if (infix == std::string::npos) return std::pair{*type, false};
  const std::string base = field.name.substr(0, infix);
  const auto named = normalize::ParseDataType(field.name.substr(infix + kVariantInfix.size()));
  const bool variant = named && schema.FindFieldByName(base) != nullptr &&
                       normalize::VariantColumnName(base, *named) == field.name &&
                       normalize::DataTypeOfIceberg(normalize::IcebergTypeName(*named)) == type;
  return std::pair{variant ? *named : *type, variant};
}

//! The root table's hint of column `name` (the last one, as Normalizer::Make takes), or nullptr.
const normalize::ColumnHint* HintOf(const normalize::ResourceHints& hints,
                                    const std::string& name) {
  const normalize::ColumnHint* found = nullptr;
  for (const normalize::ColumnHint& hint : hints.columns) {
    if (normalize::NormalizePath(hint.name) == name) found = &hint;
  }
  return found;
}

bool IsHintedKey(const normalize::ResourceHints& hints, const std::string& name) {
  return std::ranges::any_of(hints.primary_key, [&](const std::string& key) {
    return normalize::NormalizePath(key) == name;
  });
}

normalize::TableSchema SchemaOf(const std::string& name, const iceberg::Schema& schema,
                                const normalize::ResourceHints& hints, bool root) {
  const std::set<int32_t> key(schema.identifier_field_ids().begin(),
                              schema.identifier_field_ids().end());
  normalize::TableSchema out;
  out.name = name;
  out.resource = hints.resource;
  out.write_disposition = hints.write_disposition;
  for (const iceberg::NestedField& field : schema.fields()) {
    auto typed = TypeOf(schema, field);
    if (!typed) continue;
    const normalize::ColumnHint* hint = root ? HintOf(hints, field.name) : nullptr;
    normalize::DataType type = typed->first;
    // json is stored as text: the hint tells which it is.
    if (hint && hint->data_type &&
        normalize::IcebergTypeName(*hint->data_type) == normalize::IcebergTypeName(type)) {
      type = *hint->data_type;
    }
    normalize::Column column = normalize::NewColumn(field.name, type, typed->second);
    if (column.nullable) column.nullable = !field.required;  // system columns never are
    column.primary_key = key.contains(field.id);
    if (root && IsHintedKey(hints, field.name)) {
      column.primary_key = true;
      column.nullable = false;
    }
    if (hint && hint->nullable) column.nullable = *hint->nullable;
    out.columns.push_back(std::move(column));
  }
  return out;
}

//! The longest other table of `tables` whose name `name` extends by `__<fragment>...`.
std::string ParentOf(const std::string& name, const std::vector<normalize::TableSchema>& tables) {
  std::string parent;
  for (const normalize::TableSchema& table : tables) {
    if (table.name.size() > parent.size() && name.starts_with(table.name + "__")) {
      parent = table.name;
    }
  }
  return parent;
}

}  // namespace

Result<std::vector<normalize::TableSchema>> ExistingTables(TableReads& reads, const std::string& ns,
                                                           const normalize::ResourceHints& hints) {
  std::vector<normalize::TableSchema> out;
  auto listed = reads.catalog().ListTables(iceberg::Namespace{ns});
  if (!listed && listed.error().kind == ErrorKind::kNotFound) return out;
  if (!listed) return std::unexpected(listed.error());
  const std::string root = normalize::NormalizePath(hints.table_name);
  std::vector<std::string> names;
  for (const iceberg::TableIdentifier& ident : *listed) {
    if (ident.name == root || ident.name.starts_with(root + "__")) names.push_back(ident.name);
  }
  std::ranges::sort(names);  // the root table first, and every table before the ones it parents
  for (const std::string& name : names) {
    DATABOX_ASSIGN_OR_RETURN(auto loaded, reads.Read(iceberg::TableIdentifier{{ns}, name}));
    const iceberg::Schema* schema = loaded ? loaded->metadata.CurrentSchema() : nullptr;
    if (schema == nullptr) continue;  // dropped since it was listed, or without a schema
    out.push_back(SchemaOf(name, *schema, hints, name == root));
    out.back().parent = ParentOf(name, out);
  }
  return out;
}

}  // namespace databox::load
