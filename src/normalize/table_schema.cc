#include "normalize/table_schema.h"

namespace databox::normalize {

const Column* TableSchema::FindColumn(std::string_view column_name) const {
  for (const Column& column : columns) {
    if (column.name == column_name) return &column;
  }
  return nullptr;
}

}  // namespace databox::normalize
