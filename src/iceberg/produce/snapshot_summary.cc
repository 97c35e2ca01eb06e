#include "iceberg/produce/snapshot_summary.h"

#include <optional>

#include "iceberg/produce/snapshot_producer.h"

namespace databox::iceberg {
namespace {

FileCounts CountsOf(const std::vector<DataFile>& files) {
  FileCounts counts;
  for (const auto& file : files) counts.Add(file);
  return counts;
}

std::optional<int64_t> SummaryNumber(const Snapshot* snapshot, const std::string& key) {
  if (snapshot == nullptr) return int64_t{0};
  auto it = snapshot->summary.find(key);
  if (it == snapshot->summary.end()) return std::nullopt;
  try {
    return std::stoll(it->second);
  } catch (...) {
    return std::nullopt;
  }
}

}  // namespace

std::map<std::string, std::string> SnapshotSummary(const SnapshotChange& change,
                                                   const Snapshot* parent,
                                                   const RemovedCounts& removed,
                                                   const std::vector<ManifestFile>& manifests) {
  const FileCounts added = CountsOf(change.added_files);
  const FileCounts added_deletes = CountsOf(change.added_delete_files);
  const FileCounts& deleted = removed.data;
  const FileCounts& removed_deletes = removed.deletes;
  int64_t total_files = 0, total_records = 0, total_delete_files = 0, total_deletes = 0;
  for (const auto& m : manifests) {
    const int64_t files = m.added_files_count + m.existing_files_count;
    const int64_t rows = m.added_rows_count + m.existing_rows_count;
    if (m.content == ManifestContent::kData) {
      total_files += files;
      total_records += rows;
    } else {
      total_delete_files += files;
      total_deletes += rows;
    }
  }
  std::map<std::string, std::string> summary = change.extra_summary;
  summary["operation"] = change.operation;
  if (!change.load_id.empty()) summary[kLoadIdSummaryKey] = change.load_id;
  summary["added-data-files"] = std::to_string(added.files);
  summary["added-records"] = std::to_string(added.records);
  summary["added-files-size"] = std::to_string(added.bytes);
  summary["deleted-data-files"] = std::to_string(deleted.files);
  summary["deleted-records"] = std::to_string(deleted.records);
  summary["removed-files-size"] = std::to_string(deleted.bytes);
  summary["total-data-files"] = std::to_string(total_files);
  summary["total-records"] = std::to_string(total_records);
  if (added_deletes.files > 0) {
    summary["added-delete-files"] = std::to_string(added_deletes.files);
    summary["added-position-delete-files"] = std::to_string(added_deletes.files);
    summary["added-position-deletes"] = std::to_string(added_deletes.records);
  }
  if (removed_deletes.files > 0) {
    summary["removed-delete-files"] = std::to_string(removed_deletes.files);
    summary["removed-position-delete-files"] = std::to_string(removed_deletes.files);
    summary["removed-position-deletes"] = std::to_string(removed_deletes.records);
  }
  if (auto previous = SummaryNumber(parent, "total-files-size")) {
    summary["total-files-size"] = std::to_string(*previous + added.bytes - deleted.bytes +
                                                 added_deletes.bytes - removed_deletes.bytes);
  }
  summary["total-delete-files"] = std::to_string(total_delete_files);
  summary["total-position-deletes"] = std::to_string(total_deletes);
  summary["total-equality-deletes"] = std::to_string(0);  // (a literal trips GCC 12 -Wrestrict)
  return summary;
}

}  // namespace databox::iceberg
