#include "iceberg/produce/added_manifest.h"

#include <utility>

namespace databox::iceberg {

Result<std::optional<ManifestFile>> AddedManifest::For(const std::vector<DataFile>& files,
                                                       ProduceAttempt& attempt) {
  fresh_.reset();
  if (files.empty()) return std::nullopt;
  if (kept_) return kept_;
  std::vector<ManifestEntry> entries;
  for (const auto& file : files) {
    entries.push_back(
        {ManifestEntryStatus::kAdded, std::nullopt, std::nullopt, std::nullopt, file});
  }
  DATABOX_ASSIGN_OR_RETURN(fresh_, attempt.EncodeReusedManifest(entries, content_));
  return fresh_;
}

void AddedManifest::Keep() {
  if (fresh_) kept_ = std::move(fresh_);
  fresh_.reset();
}

}  // namespace databox::iceberg
