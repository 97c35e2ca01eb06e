// Table metadata (table spec "Table Metadata"), format version 2. JSON lives in
// metadata_json.h; changes are made through table_update.h.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/error.h"
#include "iceberg/metadata/snapshot.h"
#include "iceberg/spec/partition_spec.h"
#include "iceberg/spec/schema.h"
#include "iceberg/spec/sort_order.h"

namespace databox::iceberg {

inline constexpr int32_t kDefaultFormatVersion = 2;
inline constexpr int32_t kMaxSupportedFormatVersion = 2;
//! Table property bounding metadata-log length (Iceberg's name and default).
inline constexpr const char* kPreviousVersionsMaxProperty = "write.metadata.previous-versions-max";
inline constexpr int kPreviousVersionsMaxDefault = 100;

//! Table property `key` as a whole number >= 0: nullopt when it is not set; kConfig
//! ("<key> = '<text>': not a whole number >= 0") when it is set to anything else.
Result<std::optional<int64_t>> WholeNumberProperty(
    const std::map<std::string, std::string>& properties, const std::string& key);

//! The kConfig error for a table property we cannot follow: "table <table> has <key> = '<value>':
//! <why>; fix or remove the table property". `table` names the table ("raw.t", "at <location>").
Error TablePropertyError(std::string_view table,
                         const std::map<std::string, std::string>& properties,
                         const std::string& key, std::string_view why);

//! An entry of "statistics" or "partition-statistics": written by other engines (Puffin / partition
//! statistics files). We do not read them; we keep them as written so our commits do not drop them
//! (their files would become orphans), and drop those of removed snapshots.
struct StatisticsEntry {
  int64_t snapshot_id = 0;
  std::string json;  //!< the whole entry, compact JSON
  friend bool operator==(const StatisticsEntry&, const StatisticsEntry&) = default;
};

struct TableMetadata {
  int32_t format_version = kDefaultFormatVersion;
  std::string table_uuid;
  std::string location;
  int64_t last_sequence_number = 0;
  int64_t last_updated_ms = 0;
  int32_t last_column_id = 0;
  std::vector<Schema> schemas;
  int32_t current_schema_id = 0;
  std::vector<PartitionSpec> partition_specs;
  int32_t default_spec_id = 0;
  int32_t last_partition_id = kPartitionDataIdStart - 1;
  std::map<std::string, std::string> properties;
  std::optional<int64_t> current_snapshot_id;  //!< none when the table has no snapshot
  SnapshotList snapshots;                      //!< shared between copies (see SnapshotList)
  std::vector<SnapshotLogEntry> snapshot_log;
  std::vector<MetadataLogEntry> metadata_log;
  std::vector<SortOrder> sort_orders;
  int32_t default_sort_order_id = kUnsortedOrderId;
  std::map<std::string, SnapshotRef> refs;
  std::vector<StatisticsEntry> statistics;            //!< "statistics"
  std::vector<StatisticsEntry> partition_statistics;  //!< "partition-statistics"

  const Schema* CurrentSchema() const { return SchemaById(current_schema_id); }
  const Schema* SchemaById(int32_t id) const;
  const PartitionSpec* DefaultSpec() const { return SpecById(default_spec_id); }
  const PartitionSpec* SpecById(int32_t id) const;
  const SortOrder* DefaultSortOrder() const { return SortOrderById(default_sort_order_id); }
  const SortOrder* SortOrderById(int32_t id) const;
  const Snapshot* CurrentSnapshot() const;
  const Snapshot* SnapshotById(int64_t id) const;
  const SnapshotRef* RefByName(std::string_view name) const;
  //! The snapshot a branch or tag points at, or null.
  const Snapshot* SnapshotForRef(std::string_view name) const;
  //! The snapshot a commit to `branch` builds on: its head, or main's current snapshot for a
  //! branch not created yet (as Iceberg Java's latestSnapshot); null for an empty table.
  const Snapshot* CommitBase(std::string_view branch) const;
  //! Sequence number for the next snapshot (last-sequence-number + 1).
  int64_t NextSequenceNumber() const { return last_sequence_number + 1; }
  //! A random positive 63-bit snapshot id not used by any snapshot of this table.
  int64_t NewSnapshotId() const;
  //! Checks cross-references (current schema/spec/order exist, refs point at snapshots, ...).
  Status Validate() const;

  friend bool operator==(const TableMetadata&, const TableMetadata&) = default;
};

//! A random version-4 UUID in lowercase 8-4-4-4-12 text.
std::string NewUuid();
//! Milliseconds since the Unix epoch, now.
int64_t NowMs();

}  // namespace databox::iceberg
