// Snapshots, refs and the snapshot/metadata logs (table spec "Snapshots", "Snapshot
// References", table metadata fields snapshot-log and metadata-log).
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>

#include "common/error.h"

namespace databox::iceberg {

//! Summary "operation" values.
inline constexpr const char* kOperationAppend = "append";
inline constexpr const char* kOperationReplace = "replace";
inline constexpr const char* kOperationOverwrite = "overwrite";
inline constexpr const char* kOperationDelete = "delete";
//! Name of the main branch; moving it moves current-snapshot-id.
inline constexpr const char* kMainBranch = "main";

struct Snapshot {
  int64_t snapshot_id = 0;
  std::optional<int64_t> parent_snapshot_id;
  int64_t sequence_number = 0;
  int64_t timestamp_ms = 0;
  std::string manifest_list;
  //! Includes "operation" (required by the spec) plus free-form string counters.
  std::map<std::string, std::string> summary;
  std::optional<int32_t> schema_id;

  //! summary["operation"] or "" if absent.
  std::string operation() const;

  nlohmann::json ToJson() const;
  static Result<Snapshot> FromJson(const nlohmann::json& json);
  friend bool operator==(const Snapshot&, const Snapshot&) = default;
};

enum class SnapshotRefType { kBranch, kTag };

struct SnapshotRef {
  int64_t snapshot_id = 0;
  SnapshotRefType type = SnapshotRefType::kBranch;
  std::optional<int32_t> min_snapshots_to_keep;  //!< branches only
  std::optional<int64_t> max_snapshot_age_ms;    //!< branches only
  std::optional<int64_t> max_ref_age_ms;

  //! A branch / tag at `snapshot_id` with default retention.
  static SnapshotRef Branch(int64_t snapshot_id) {
    return SnapshotRef{snapshot_id, SnapshotRefType::kBranch, {}, {}, {}};
  }
  static SnapshotRef Tag(int64_t snapshot_id) {
    return SnapshotRef{snapshot_id, SnapshotRefType::kTag, {}, {}, {}};
  }

  //! {"snapshot-id":..,"type":"branch"|"tag",...retention}
  nlohmann::json ToJson() const;
  static Result<SnapshotRef> FromJson(const nlohmann::json& json);
  friend bool operator==(const SnapshotRef&, const SnapshotRef&) = default;
};

//! "branch" / "tag" and back.
const char* SnapshotRefTypeName(SnapshotRefType type);
Result<SnapshotRefType> ParseSnapshotRefType(std::string_view text);

struct SnapshotLogEntry {
  int64_t snapshot_id = 0;
  int64_t timestamp_ms = 0;
  nlohmann::json ToJson() const;
  static Result<SnapshotLogEntry> FromJson(const nlohmann::json& json);
  friend bool operator==(const SnapshotLogEntry&, const SnapshotLogEntry&) = default;
};

struct MetadataLogEntry {
  std::string metadata_file;
  int64_t timestamp_ms = 0;
  nlohmann::json ToJson() const;
  static Result<MetadataLogEntry> FromJson(const nlohmann::json& json);
  friend bool operator==(const MetadataLogEntry&, const MetadataLogEntry&) = default;
};

}  // namespace databox::iceberg
