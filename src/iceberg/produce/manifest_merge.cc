#include "iceberg/produce/manifest_merge.h"

#include <map>
#include <string>
#include <utility>

#include "iceberg/manifest/manifest.h"

namespace databox::iceberg {
namespace {

//! One manifest of the live entries of `bin` (manifests of spec `spec_id`), all EXISTING.
Result<ManifestFile> MergeBin(int32_t spec_id, const std::vector<ManifestFile>& bin,
                              fileio::FileIO& io, ProduceAttempt& attempt) {
  std::vector<ManifestEntry> entries;
  for (const auto& m : bin) {
    DATABOX_ASSIGN_OR_RETURN(std::string bytes, io.Read(m.manifest_path));
    DATABOX_ASSIGN_OR_RETURN(Manifest manifest, ReadManifest(std::move(bytes), m));
    for (auto& entry : manifest.entries) {
      if (entry.status == ManifestEntryStatus::kDeleted) continue;
      entry.status = ManifestEntryStatus::kExisting;
      entries.push_back(std::move(entry));
    }
  }
  const PartitionSpec* spec = attempt.base().SpecById(spec_id);
  if (spec == nullptr) {
    return MakeError(ErrorKind::kData, "unknown partition spec " + std::to_string(spec_id) +
                                           " in " + attempt.base().location);
  }
  return attempt.EncodeManifest(*spec, entries);
}

}  // namespace

Result<std::vector<ManifestFile>> MergeManifests(const ManifestMergeOptions& options, size_t listed,
                                                 std::vector<ManifestFile> carried,
                                                 fileio::FileIO& io, ProduceAttempt& attempt) {
  if (!options.enabled || listed <= static_cast<size_t>(options.min_count_to_merge)) {
    return carried;
  }
  std::map<int32_t, std::vector<ManifestFile>> bins;
  std::vector<ManifestFile> kept;
  for (auto& m : carried) {
    if (m.content == ManifestContent::kData && m.manifest_length < options.target_size_bytes) {
      bins[m.partition_spec_id].push_back(std::move(m));
    } else {
      kept.push_back(std::move(m));
    }
  }
  std::vector<ManifestFile> out;
  for (auto& [spec_id, bin] : bins) {
    if (bin.size() < 2) {
      for (auto& m : bin) kept.push_back(std::move(m));
      continue;
    }
    DATABOX_ASSIGN_OR_RETURN(ManifestFile merged, MergeBin(spec_id, bin, io, attempt));
    out.push_back(std::move(merged));
  }
  for (auto& m : kept) out.push_back(std::move(m));
  return out;
}

}  // namespace databox::iceberg
