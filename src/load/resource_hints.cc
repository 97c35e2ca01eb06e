#include "load/resource_hints.h"

#include "source/extractor.h"

namespace databox::load {
namespace {

normalize::WriteDisposition ToNormalize(registry::WriteDisposition d) {
  switch (d) {
    case registry::WriteDisposition::kAppend:
      return normalize::WriteDisposition::kAppend;
    case registry::WriteDisposition::kReplace:
      return normalize::WriteDisposition::kReplace;
    case registry::WriteDisposition::kMerge:
      return normalize::WriteDisposition::kMerge;
  }
  return normalize::WriteDisposition::kAppend;
}

}  // namespace

Result<normalize::ResourceHints> HintsFor(const registry::Source& source,
                                          const registry::Resource& resource) {
  normalize::ResourceHints hints;
  hints.resource = resource.name;
  hints.table_name = resource.name;
  hints.write_disposition = ToNormalize(resource.write_disposition);
  hints.primary_key = resource.primary_key;
  for (const auto& [name, hint] : resource.columns) {
    normalize::ColumnHint column;
    column.name = name;
    if (!hint.type.empty()) {
      column.data_type = normalize::ParseDataType(hint.type);
      if (!column.data_type) {
        return MakeError(ErrorKind::kConfig, source::ResourceLabel(source, resource) + ": column " +
                                                 name + " has unknown type " + hint.type);
      }
    }
    column.nullable = hint.nullable;
    hints.columns.push_back(std::move(column));
  }
  return hints;
}

}  // namespace databox::load
