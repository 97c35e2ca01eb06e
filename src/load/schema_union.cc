#include "load/schema_union.h"

#include <cstddef>
#include <utility>

namespace databox::load {

const normalize::TableSchema* SchemaUnion::Find(const std::string& name) const {
  for (const normalize::TableSchema& table : tables_) {
    if (table.name == name) return &table;
  }
  return nullptr;
}

std::optional<std::string> SchemaUnion::Conflict(
    const std::vector<normalize::TableSchema>& part) const {
  for (const normalize::TableSchema& table : part) {
    const normalize::TableSchema* known = Find(table.name);
    if (known == nullptr) continue;
    if (known->parent != table.parent) {
      return "table '" + table.name + "' has parent '" + table.parent + "', not '" + known->parent +
             "'";
    }
    for (const normalize::Column& column : table.columns) {
      const normalize::Column* same = known->FindColumn(column.name);
      if (same != nullptr && !(*same == column)) {
        return "table '" + table.name + "' column '" + column.name + "' is " +
               std::string(DataTypeName(column.data_type)) + ", not " +
               std::string(DataTypeName(same->data_type)) + " (or other flags)";
      }
    }
  }
  return std::nullopt;
}

void SchemaUnion::Add(const std::vector<normalize::TableSchema>& part) {
  for (const normalize::TableSchema& table : part) {
    normalize::TableSchema* known = nullptr;
    for (normalize::TableSchema& t : tables_) {
      if (t.name == table.name) known = &t;
    }
    if (known == nullptr) {
      tables_.push_back(table);
      continue;
    }
    for (const normalize::Column& column : table.columns) {
      if (known->FindColumn(column.name) == nullptr) known->columns.push_back(column);
    }
  }
}

void SchemaUnion::Align(normalize::TableBatch& batch) const {
  const normalize::TableSchema* table = Find(batch.schema.name);
  if (table == nullptr || table->columns == batch.schema.columns) return;
  std::vector<normalize::ColumnValues> columns;
  columns.reserve(table->columns.size());
  for (const normalize::Column& column : table->columns) {
    std::size_t at = 0;
    while (at < batch.schema.columns.size() && batch.schema.columns[at].name != column.name) ++at;
    if (at < batch.schema.columns.size()) {
      columns.push_back(std::move(batch.columns[at]));
    } else {
      columns.push_back(normalize::ValuesFor(column.data_type, batch.num_rows));
    }
  }
  batch.columns = std::move(columns);
  batch.schema = *table;
}

}  // namespace databox::load
