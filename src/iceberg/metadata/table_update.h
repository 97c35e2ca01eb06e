// Table updates: the REST catalog spec's "TableUpdate" actions, their JSON, and applying
// them to metadata (what a catalog does on commit).
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "common/error.h"
#include "iceberg/metadata/table_metadata.h"

namespace databox::iceberg {

//! Schema/spec/sort-order id meaning "the one added last in this change set".
inline constexpr int32_t kLastAdded = -1;

struct AssignUuid {
  std::string uuid;
  friend bool operator==(const AssignUuid&, const AssignUuid&) = default;
};
struct UpgradeFormatVersion {
  int32_t format_version = kDefaultFormatVersion;
  friend bool operator==(const UpgradeFormatVersion&, const UpgradeFormatVersion&) = default;
};
struct AddSchema {
  Schema schema;
  std::optional<int32_t> last_column_id;  //!< deprecated in the REST spec; still written by clients
  friend bool operator==(const AddSchema&, const AddSchema&) = default;
};
struct SetCurrentSchema {
  int32_t schema_id = kLastAdded;
  friend bool operator==(const SetCurrentSchema&, const SetCurrentSchema&) = default;
};
struct AddPartitionSpec {
  PartitionSpec spec;
  friend bool operator==(const AddPartitionSpec&, const AddPartitionSpec&) = default;
};
struct SetDefaultSpec {
  int32_t spec_id = kLastAdded;
  friend bool operator==(const SetDefaultSpec&, const SetDefaultSpec&) = default;
};
struct AddSortOrder {
  SortOrder sort_order;
  friend bool operator==(const AddSortOrder&, const AddSortOrder&) = default;
};
struct SetDefaultSortOrder {
  int32_t sort_order_id = kLastAdded;
  friend bool operator==(const SetDefaultSortOrder&, const SetDefaultSortOrder&) = default;
};
struct AddSnapshot {
  Snapshot snapshot;
  friend bool operator==(const AddSnapshot&, const AddSnapshot&) = default;
};
struct SetSnapshotRef {
  std::string ref_name;
  SnapshotRef ref;
  friend bool operator==(const SetSnapshotRef&, const SetSnapshotRef&) = default;
};
struct RemoveSnapshots {
  std::vector<int64_t> snapshot_ids;
  friend bool operator==(const RemoveSnapshots&, const RemoveSnapshots&) = default;
};
struct RemoveSnapshotRef {
  std::string ref_name;
  friend bool operator==(const RemoveSnapshotRef&, const RemoveSnapshotRef&) = default;
};
struct SetLocation {
  std::string location;
  friend bool operator==(const SetLocation&, const SetLocation&) = default;
};
struct SetProperties {
  std::map<std::string, std::string> updates;
  friend bool operator==(const SetProperties&, const SetProperties&) = default;
};
struct RemoveProperties {
  std::vector<std::string> removals;
  friend bool operator==(const RemoveProperties&, const RemoveProperties&) = default;
};

using TableUpdate =
    std::variant<AssignUuid, UpgradeFormatVersion, AddSchema, SetCurrentSchema, AddPartitionSpec,
                 SetDefaultSpec, AddSortOrder, SetDefaultSortOrder, AddSnapshot, SetSnapshotRef,
                 RemoveSnapshots, RemoveSnapshotRef, SetLocation, SetProperties, RemoveProperties>;

//! {"action":"assign-uuid","uuid":..}, {"action":"add-schema","schema":..,"last-column-id":..}, ...
nlohmann::json TableUpdateToJson(const TableUpdate& update);
Result<TableUpdate> TableUpdateFromJson(const nlohmann::json& json);
//! The REST action name ("add-snapshot", ...).
const char* TableUpdateAction(const TableUpdate& update);

//! Applies updates in order to `base` (null = create a new table) and returns the new
//! metadata. Follows the spec: ids of added schemas/specs/orders are reassigned (an
//! identical existing one is reused), kLastAdded resolves to the last added, add-snapshot
//! requires sequence-number > last-sequence-number and raises it, moving "main" sets
//! current-snapshot-id and appends to snapshot-log, removing snapshots drops refs to them.
//! last-updated-ms = `now_ms` (or the added snapshot's timestamp when later). The
//! metadata-log is NOT touched: the caller knows the previous file (AppendMetadataLog).
//! Errors are kData (an update that cannot apply); a missing uuid on create is generated.
Result<TableMetadata> ApplyUpdates(const TableMetadata* base, std::span<const TableUpdate> updates,
                                   int64_t now_ms);
//! As above with now_ms = NowMs().
Result<TableMetadata> ApplyUpdates(const TableMetadata* base, std::span<const TableUpdate> updates);

//! Records `previous_metadata_location` (whose last-updated-ms was `previous_last_updated_ms`)
//! in next.metadata_log, trimming the oldest entries beyond write.metadata.previous-versions-max
//! (at least one is kept, as in Iceberg Java). A value of that property that is not a whole
//! number >= 0 is a kConfig error naming the table and the property; `next` is then unchanged.
Status AppendMetadataLog(TableMetadata& next, std::string previous_metadata_location,
                         int64_t previous_last_updated_ms);

//! Metadata for a new table, as the spec's create does: field ids are reassigned fresh
//! (1..n, each struct's fields before their children — the numbering Iceberg Java and
//! pyiceberg use), identifier ids, partition source ids and sort source ids are remapped to
//! the new ids, partition field ids are reassigned from 1000, schema and spec get id 0 and
//! a non-empty sort order id 1. A random table UUID is assigned. Format version 2.
Result<TableMetadata> NewTableMetadata(const Schema& schema, const PartitionSpec& spec,
                                       const SortOrder& sort_order, std::string location,
                                       std::map<std::string, std::string> properties);

//! The updates that create `metadata` from nothing (assign-uuid, upgrade-format-version,
//! add-schema, set-current-schema -1, add-spec, set-default-spec -1, add-sort-order,
//! set-default-sort-order -1, set-location, set-properties): a REST create-table commit.
std::vector<TableUpdate> CreateTableUpdates(const TableMetadata& metadata);

}  // namespace databox::iceberg
