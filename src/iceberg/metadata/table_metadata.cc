#include "iceberg/metadata/table_metadata.h"

#include <unistd.h>

#include <charconv>
#include <chrono>
#include <random>
#include <set>
#include <string>

#include "iceberg/spec/literal.h"

namespace databox::iceberg {

namespace {

template <typename Items, typename Pred>
const typename Items::value_type* FindIf(const Items& items, Pred pred) {
  for (const auto& item : items) {
    if (pred(item)) return &item;
  }
  return nullptr;
}

//! A per-thread generator, reseeded when the process id changes: a child created by fork()
//! inherits the parent's state and would otherwise repeat its uuids and snapshot ids.
std::mt19937_64& Rng() {
  thread_local std::mt19937_64 rng;
  thread_local pid_t seeded_for = 0;
  if (const pid_t pid = ::getpid(); pid != seeded_for) {
    std::random_device device;
    std::seed_seq seed{device(), device(), device(), device()};
    rng.seed(seed);
    seeded_for = pid;
  }
  return rng;
}

}  // namespace

const Schema* TableMetadata::SchemaById(int32_t id) const {
  return FindIf(schemas, [&](const Schema& s) { return s.schema_id() == id; });
}

const PartitionSpec* TableMetadata::SpecById(int32_t id) const {
  return FindIf(partition_specs, [&](const PartitionSpec& s) { return s.spec_id == id; });
}

const SortOrder* TableMetadata::SortOrderById(int32_t id) const {
  return FindIf(sort_orders, [&](const SortOrder& s) { return s.order_id == id; });
}

const Snapshot* TableMetadata::CurrentSnapshot() const {
  return current_snapshot_id ? SnapshotById(*current_snapshot_id) : nullptr;
}

const Snapshot* TableMetadata::SnapshotById(int64_t id) const {
  return FindIf(snapshots, [&](const Snapshot& s) { return s.snapshot_id == id; });
}

const SnapshotRef* TableMetadata::RefByName(std::string_view name) const {
  auto it = refs.find(std::string(name));
  return it == refs.end() ? nullptr : &it->second;
}

const Snapshot* TableMetadata::SnapshotForRef(std::string_view name) const {
  const SnapshotRef* ref = RefByName(name);
  return ref == nullptr ? nullptr : SnapshotById(ref->snapshot_id);
}

Result<std::optional<int64_t>> WholeNumberProperty(
    const std::map<std::string, std::string>& properties, const std::string& key) {
  auto it = properties.find(key);
  if (it == properties.end()) return std::nullopt;
  const std::string& text = it->second;
  int64_t value = -1;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < 0) {
    return MakeError(ErrorKind::kConfig, key + " = '" + text + "': not a whole number >= 0");
  }
  return value;
}

Error TablePropertyError(std::string_view table,
                         const std::map<std::string, std::string>& properties,
                         const std::string& key, std::string_view why) {
  const auto it = properties.find(key);
  const std::string value = it == properties.end() ? std::string() : it->second;
  return Error{ErrorKind::kConfig, "table " + std::string(table) + " has " + key + " = '" + value +
                                       "': " + std::string(why) +
                                       "; fix or remove the table property"};
}

const Snapshot* TableMetadata::CommitBase(std::string_view branch) const {
  return RefByName(branch) != nullptr ? SnapshotForRef(branch) : CurrentSnapshot();
}

int64_t TableMetadata::NewSnapshotId() const {
  std::uniform_int_distribution<int64_t> dist(1, std::numeric_limits<int64_t>::max());
  for (;;) {
    const int64_t id = dist(Rng());
    if (SnapshotById(id) == nullptr) return id;
  }
}

Status TableMetadata::Validate() const {
  auto bad = [&](const std::string& problem) {
    return MakeError(ErrorKind::kData, "table metadata for " + location + ": " + problem);
  };
  if (format_version < 1 || format_version > kMaxSupportedFormatVersion) {
    return bad("format-version " + std::to_string(format_version) + " is not supported (1 or 2)");
  }
  if (CurrentSchema() == nullptr) {
    return bad("current-schema-id " + std::to_string(current_schema_id) + " names no schema");
  }
  if (DefaultSpec() == nullptr) {
    return bad("default-spec-id " + std::to_string(default_spec_id) + " names no partition spec");
  }
  if (DefaultSortOrder() == nullptr && !(default_sort_order_id == kUnsortedOrderId)) {
    return bad("default-sort-order-id " + std::to_string(default_sort_order_id) +
               " names no sort order");
  }
  for (const auto& schema : schemas) {
    DATABOX_RETURN_IF_ERROR(schema.Validate());
    if (schema.HighestFieldId() > last_column_id) {
      return bad("schema " + std::to_string(schema.schema_id()) +
                 " has field ids above last-column-id " + std::to_string(last_column_id));
    }
  }
  for (const auto& spec : partition_specs) {
    if (spec.LastAssignedFieldId() > last_partition_id) {
      return bad("partition spec " + std::to_string(spec.spec_id) +
                 " has field ids above last-partition-id " + std::to_string(last_partition_id));
    }
  }
  if (current_snapshot_id && CurrentSnapshot() == nullptr) {
    return bad("current-snapshot-id " + std::to_string(*current_snapshot_id) +
               " names no snapshot");
  }
  for (const auto& [name, ref] : refs) {
    if (SnapshotById(ref.snapshot_id) == nullptr) {
      return bad("ref \"" + name + "\" points at missing snapshot " +
                 std::to_string(ref.snapshot_id));
    }
  }
  for (const auto& s : snapshots) {
    if (s.sequence_number > last_sequence_number) {
      return bad("snapshot " + std::to_string(s.snapshot_id) +
                 " has a sequence number above last-sequence-number");
    }
  }
  return Ok();
}

std::string NewUuid() {
  UuidBytes bytes;
  std::uniform_int_distribution<int> dist(0, 255);
  for (auto& b : bytes) b = static_cast<uint8_t>(dist(Rng()));
  bytes[6] = static_cast<uint8_t>((bytes[6] & 0x0f) | 0x40);  // version 4
  bytes[8] = static_cast<uint8_t>((bytes[8] & 0x3f) | 0x80);  // RFC 4122 variant
  return FormatUuid(bytes);
}

int64_t NowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace databox::iceberg
