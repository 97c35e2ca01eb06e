#include "normalize/table_schema.h"

namespace databox::normalize {

std::string_view WriteDispositionName(WriteDisposition disposition) {
  switch (disposition) {
    case WriteDisposition::kAppend:
      return "append";
    case WriteDisposition::kReplace:
      return "replace";
    case WriteDisposition::kMerge:
      return "merge";
  }
  return "append";
}

std::optional<WriteDisposition> ParseWriteDisposition(std::string_view name) {
  for (WriteDisposition d :
       {WriteDisposition::kAppend, WriteDisposition::kReplace, WriteDisposition::kMerge}) {
    if (WriteDispositionName(d) == name) return d;
  }
  return std::nullopt;
}

const Column* TableSchema::FindColumn(std::string_view column_name) const {
  for (const Column& column : columns) {
    if (column.name == column_name) return &column;
  }
  return nullptr;
}

}  // namespace databox::normalize
