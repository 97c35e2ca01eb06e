#include "iceberg/spec/position_delete_files.h"

namespace databox::iceberg {

Schema PositionDeleteSchema() {
  return Schema(0, {NestedField{.id = kDeleteFilePathFieldId,
                                .name = "file_path",
                                .required = true,
                                .type = Type::String(),
                                .doc = std::nullopt},
                    NestedField{.id = kDeletePosFieldId,
                                .name = "pos",
                                .required = true,
                                .type = Type::Long(),
                                .doc = std::nullopt}});
}

std::optional<std::string> ReferencedDataFile(const DataFile& delete_file) {
  auto lower = delete_file.lower_bounds.find(kDeleteFilePathFieldId);
  auto upper = delete_file.upper_bounds.find(kDeleteFilePathFieldId);
  if (lower == delete_file.lower_bounds.end() || upper == delete_file.upper_bounds.end() ||
      lower->second != upper->second) {
    return std::nullopt;
  }
  return lower->second;
}

std::vector<DataFile> DeletesFor(const DataFile& data_file, std::span<const DataFile> deletes) {
  std::vector<DataFile> out;
  const std::string& location = data_file.file_path;
  for (const auto& file : deletes) {
    auto lower = file.lower_bounds.find(kDeleteFilePathFieldId);
    auto upper = file.upper_bounds.find(kDeleteFilePathFieldId);
    if (lower != file.lower_bounds.end() && location < lower->second) continue;
    if (upper != file.upper_bounds.end() && location > upper->second) continue;
    out.push_back(file);
  }
  return out;
}

}  // namespace databox::iceberg
