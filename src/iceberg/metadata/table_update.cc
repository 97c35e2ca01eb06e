#include "iceberg/metadata/table_update.h"

#include <algorithm>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <unordered_map>

#include "iceberg/spec/json_internal.h"

namespace databox::iceberg {

namespace {

constexpr const char* kUpdateWhat = "table update";

std::unexpected<Error> CannotApply(const TableUpdate& update, const std::string& problem) {
  return MakeError(ErrorKind::kData,
                   std::string("cannot apply ") + TableUpdateAction(update) + ": " + problem);
}

template <typename T>
int32_t NextId(const std::vector<T>& items, int32_t (*id_of)(const T&), int32_t first) {
  int32_t next = first;
  for (const auto& item : items) next = std::max(next, id_of(item) + 1);
  return next;
}

//! Applies updates one at a time, remembering what this change set added.
class MetadataBuilder {
 public:
  MetadataBuilder(TableMetadata md, int64_t now_ms) : md_(std::move(md)), now_ms_(now_ms) {}

  Status Apply(const TableUpdate& update) {
    return std::visit([&](const auto& u) { return Apply(update, u); }, update);
  }

  Result<TableMetadata> Finish(bool creating) && {
    if (creating) {
      if (md_.table_uuid.empty()) md_.table_uuid = NewUuid();
      if (md_.CurrentSchema() == nullptr) {
        return MakeError(ErrorKind::kData,
                         "a new table needs add-schema and set-current-schema updates");
      }
      if (md_.partition_specs.empty())
        md_.partition_specs.push_back(PartitionSpec::Unpartitioned());
      if (md_.sort_orders.empty()) md_.sort_orders.push_back(SortOrder::Unsorted());
    }
    md_.last_updated_ms = std::max(now_ms_, latest_snapshot_ms_);
    DATABOX_RETURN_IF_ERROR(md_.Validate());
    return std::move(md_);
  }

 private:
  Status Apply(const TableUpdate& u, const AssignUuid& a) {
    if (!md_.table_uuid.empty() && md_.table_uuid != a.uuid) {
      return CannotApply(
          u, "the table already has uuid " + md_.table_uuid + "; a uuid is never reassigned");
    }
    md_.table_uuid = a.uuid;
    return Ok();
  }

  Status Apply(const TableUpdate& u, const UpgradeFormatVersion& a) {
    if (a.format_version > kMaxSupportedFormatVersion) {
      return CannotApply(
          u, "format version " + std::to_string(a.format_version) + " is not supported");
    }
    if (a.format_version < md_.format_version) {
      return CannotApply(
          u, "cannot downgrade from format version " + std::to_string(md_.format_version));
    }
    md_.format_version = a.format_version;
    return Ok();
  }

  Status Apply(const TableUpdate& u, const AddSchema& a) {
    if (auto valid = a.schema.Validate(); !valid) return CannotApply(u, valid.error().message);
    int32_t id = -1;
    for (const auto& s : md_.schemas) {
      if (s.SameStructure(a.schema)) id = s.schema_id();
    }
    if (id < 0) {
      id = NextId<Schema>(
          md_.schemas, [](const Schema& s) { return s.schema_id(); }, 0);
      Schema added = a.schema;
      added.set_schema_id(id);
      md_.schemas.push_back(std::move(added));
    }
    md_.last_column_id =
        std::max({md_.last_column_id, a.last_column_id.value_or(0), a.schema.HighestFieldId()});
    last_schema_ = id;
    return Ok();
  }

  Status Apply(const TableUpdate& u, const SetCurrentSchema& a) {
    DATABOX_ASSIGN_OR_RETURN(md_.current_schema_id,
                             Resolve(u, a.schema_id, last_schema_, "schema",
                                     [&](int32_t id) { return md_.SchemaById(id) != nullptr; }));
    return Ok();
  }

  Status Apply(const TableUpdate& u, const AddPartitionSpec& a) {
    const Schema* schema = md_.CurrentSchema();
    if (schema == nullptr && !md_.schemas.empty()) schema = &md_.schemas.back();
    if (schema == nullptr) return CannotApply(u, "the table has no schema to partition by");
    if (auto valid = a.spec.Validate(*schema); !valid) return CannotApply(u, valid.error().message);
    int32_t id = -1;
    for (const auto& s : md_.partition_specs) {
      if (s.SameFields(a.spec)) id = s.spec_id;
    }
    if (id < 0) {
      id = NextId<PartitionSpec>(
          md_.partition_specs, [](const PartitionSpec& s) { return s.spec_id; }, 0);
      PartitionSpec added = a.spec;
      added.spec_id = id;
      md_.partition_specs.push_back(std::move(added));
    }
    md_.last_partition_id = std::max(md_.last_partition_id, a.spec.LastAssignedFieldId());
    last_spec_ = id;
    return Ok();
  }

  Status Apply(const TableUpdate& u, const SetDefaultSpec& a) {
    DATABOX_ASSIGN_OR_RETURN(md_.default_spec_id,
                             Resolve(u, a.spec_id, last_spec_, "partition spec",
                                     [&](int32_t id) { return md_.SpecById(id) != nullptr; }));
    return Ok();
  }

  Status Apply(const TableUpdate&, const AddSortOrder& a) {
    int32_t id = -1;
    if (a.sort_order.is_unsorted()) id = kUnsortedOrderId;
    for (const auto& s : md_.sort_orders) {
      if (s.fields == a.sort_order.fields) id = s.order_id;
    }
    if (md_.SortOrderById(id) == nullptr) {
      if (id < 0) {
        id = NextId<SortOrder>(
            md_.sort_orders, [](const SortOrder& s) { return s.order_id; }, kUnsortedOrderId + 1);
      }
      SortOrder added = a.sort_order;
      added.order_id = id;
      md_.sort_orders.push_back(std::move(added));
    }
    last_order_ = id;
    return Ok();
  }

  Status Apply(const TableUpdate& u, const SetDefaultSortOrder& a) {
    DATABOX_ASSIGN_OR_RETURN(md_.default_sort_order_id,
                             Resolve(u, a.sort_order_id, last_order_, "sort order",
                                     [&](int32_t id) { return md_.SortOrderById(id) != nullptr; }));
    return Ok();
  }

  Status Apply(const TableUpdate& u, const AddSnapshot& a) {
    const Snapshot& s = a.snapshot;
    if (md_.SnapshotById(s.snapshot_id) != nullptr) {
      return CannotApply(u, "snapshot " + std::to_string(s.snapshot_id) + " already exists");
    }
    if (md_.format_version >= 2 && s.sequence_number <= md_.last_sequence_number) {
      return CannotApply(
          u, "snapshot " + std::to_string(s.snapshot_id) + " has sequence number " +
                 std::to_string(s.sequence_number) + ", not above last-sequence-number " +
                 std::to_string(md_.last_sequence_number) + "; rebase it on the current table");
    }
    if (s.schema_id && md_.SchemaById(*s.schema_id) == nullptr) {
      return CannotApply(u, "snapshot refers to unknown schema " + std::to_string(*s.schema_id));
    }
    md_.snapshots.push_back(s);
    md_.last_sequence_number = std::max(md_.last_sequence_number, s.sequence_number);
    latest_snapshot_ms_ = std::max(latest_snapshot_ms_, s.timestamp_ms);
    added_snapshots_[s.snapshot_id] = s.timestamp_ms;
    return Ok();
  }

  Status Apply(const TableUpdate& u, const SetSnapshotRef& a) {
    if (md_.SnapshotById(a.ref.snapshot_id) == nullptr) {
      return CannotApply(u, "ref \"" + a.ref_name + "\" would point at unknown snapshot " +
                                std::to_string(a.ref.snapshot_id));
    }
    if (a.ref_name == kMainBranch && a.ref.type != SnapshotRefType::kBranch) {
      return CannotApply(u, "\"main\" must be a branch");
    }
    if (const SnapshotRef* existing = md_.RefByName(a.ref_name); existing && *existing == a.ref) {
      return Ok();
    }
    md_.refs[a.ref_name] = a.ref;
    if (a.ref_name == kMainBranch) {
      md_.current_snapshot_id = a.ref.snapshot_id;
      auto added = added_snapshots_.find(a.ref.snapshot_id);
      const int64_t ts = added != added_snapshots_.end() ? added->second : now_ms_;
      md_.snapshot_log.push_back(SnapshotLogEntry{a.ref.snapshot_id, ts});
    }
    return Ok();
  }

  Status Apply(const TableUpdate&, const RemoveSnapshots& a) {
    const std::set<int64_t> removed(a.snapshot_ids.begin(), a.snapshot_ids.end());
    md_.snapshots.RemoveIf([&](const Snapshot& s) { return removed.contains(s.snapshot_id); });
    std::erase_if(md_.refs,
                  [&](const auto& entry) { return removed.contains(entry.second.snapshot_id); });
    if (!md_.refs.contains(kMainBranch)) md_.current_snapshot_id.reset();
    for (auto* entries : {&md_.statistics, &md_.partition_statistics}) {
      std::erase_if(*entries,
                    [&](const StatisticsEntry& e) { return removed.contains(e.snapshot_id); });
    }
    // History before a removed snapshot is no longer reproducible: keep only what follows it.
    std::vector<SnapshotLogEntry> log;
    for (const auto& e : md_.snapshot_log) {
      if (md_.SnapshotById(e.snapshot_id) == nullptr) {
        log.clear();
      } else {
        log.push_back(e);
      }
    }
    md_.snapshot_log = std::move(log);
    return Ok();
  }

  Status Apply(const TableUpdate&, const RemoveSnapshotRef& a) {
    md_.refs.erase(a.ref_name);
    if (a.ref_name == kMainBranch) md_.current_snapshot_id.reset();
    return Ok();
  }

  Status Apply(const TableUpdate& u, const SetLocation& a) {
    if (a.location.empty()) return CannotApply(u, "the location is empty");
    md_.location = a.location;
    return Ok();
  }

  Status Apply(const TableUpdate&, const SetProperties& a) {
    for (const auto& [k, v] : a.updates) md_.properties[k] = v;
    return Ok();
  }

  Status Apply(const TableUpdate&, const RemoveProperties& a) {
    for (const auto& k : a.removals) md_.properties.erase(k);
    return Ok();
  }

  //! The id a set-current/set-default update names: kLastAdded resolves to `last_added`.
  template <typename Exists>
  static Result<int32_t> Resolve(const TableUpdate& u, int32_t id,
                                 std::optional<int32_t> last_added, const std::string& what,
                                 Exists exists) {
    if (id == kLastAdded) {
      if (!last_added) return CannotApply(u, "id -1 but no " + what + " was added in this commit");
      id = *last_added;
    }
    if (!exists(id)) return CannotApply(u, "no " + what + " with id " + std::to_string(id));
    return id;
  }

  TableMetadata md_;
  int64_t now_ms_;
  int64_t latest_snapshot_ms_ = 0;
  std::optional<int32_t> last_schema_;
  std::optional<int32_t> last_spec_;
  std::optional<int32_t> last_order_;
  std::unordered_map<int64_t, int64_t> added_snapshots_;  //!< id -> timestamp-ms
};

Result<std::vector<std::string>> StringArray(const nlohmann::json& json, std::string_view key) {
  DATABOX_ASSIGN_OR_RETURN(const nlohmann::json* v, internal::Member(json, key, kUpdateWhat));
  std::vector<std::string> out;
  if (!v->is_array())
    return internal::JsonError(kUpdateWhat, "\"" + std::string(key) + "\" must be an array");
  for (const auto& item : *v) {
    if (!item.is_string())
      return internal::JsonError(kUpdateWhat, "\"" + std::string(key) + "\" must hold strings");
    out.push_back(item.get<std::string>());
  }
  return out;
}

}  // namespace

const char* TableUpdateAction(const TableUpdate& update) {
  static constexpr const char* kNames[] = {
      "assign-uuid",  "upgrade-format-version", "add-schema",       "set-current-schema",
      "add-spec",     "set-default-spec",       "add-sort-order",   "set-default-sort-order",
      "add-snapshot", "set-snapshot-ref",       "remove-snapshots", "remove-snapshot-ref",
      "set-location", "set-properties",         "remove-properties"};
  static_assert(std::size(kNames) == std::variant_size_v<TableUpdate>);
  return kNames[update.index()];
}

nlohmann::json TableUpdateToJson(const TableUpdate& update) {
  nlohmann::json j = {{"action", TableUpdateAction(update)}};
  std::visit(
      [&](const auto& u) {
        using T = std::decay_t<decltype(u)>;
        if constexpr (std::is_same_v<T, AssignUuid>) {
          j["uuid"] = u.uuid;
        } else if constexpr (std::is_same_v<T, UpgradeFormatVersion>) {
          j["format-version"] = u.format_version;
        } else if constexpr (std::is_same_v<T, AddSchema>) {
          j["schema"] = u.schema.ToJson();
          if (u.last_column_id) j["last-column-id"] = *u.last_column_id;
        } else if constexpr (std::is_same_v<T, SetCurrentSchema>) {
          j["schema-id"] = u.schema_id;
        } else if constexpr (std::is_same_v<T, AddPartitionSpec>) {
          j["spec"] = u.spec.ToJson();
        } else if constexpr (std::is_same_v<T, SetDefaultSpec>) {
          j["spec-id"] = u.spec_id;
        } else if constexpr (std::is_same_v<T, AddSortOrder>) {
          j["sort-order"] = u.sort_order.ToJson();
        } else if constexpr (std::is_same_v<T, SetDefaultSortOrder>) {
          j["sort-order-id"] = u.sort_order_id;
        } else if constexpr (std::is_same_v<T, AddSnapshot>) {
          j["snapshot"] = u.snapshot.ToJson();
        } else if constexpr (std::is_same_v<T, SetSnapshotRef>) {
          j.update(u.ref.ToJson());
          j["ref-name"] = u.ref_name;
        } else if constexpr (std::is_same_v<T, RemoveSnapshots>) {
          j["snapshot-ids"] = u.snapshot_ids;
        } else if constexpr (std::is_same_v<T, RemoveSnapshotRef>) {
          j["ref-name"] = u.ref_name;
        } else if constexpr (std::is_same_v<T, SetLocation>) {
          j["location"] = u.location;
        } else if constexpr (std::is_same_v<T, SetProperties>) {
          j["updates"] = u.updates;
        } else if constexpr (std::is_same_v<T, RemoveProperties>) {
          j["removals"] = u.removals;
        }
      },
      update);
  return j;
}

Result<TableUpdate> TableUpdateFromJson(const nlohmann::json& json) {
  DATABOX_ASSIGN_OR_RETURN(std::string action, internal::GetString(json, "action", kUpdateWhat));
  const std::string what = "update " + action;
  if (action == "assign-uuid") {
    DATABOX_ASSIGN_OR_RETURN(std::string uuid, internal::GetString(json, "uuid", what));
    return AssignUuid{std::move(uuid)};
  }
  if (action == "upgrade-format-version") {
    DATABOX_ASSIGN_OR_RETURN(int32_t v, internal::GetInt32(json, "format-version", what));
    return UpgradeFormatVersion{v};
  }
  if (action == "add-schema") {
    DATABOX_ASSIGN_OR_RETURN(const nlohmann::json* schema, internal::Member(json, "schema", what));
    DATABOX_ASSIGN_OR_RETURN(Schema parsed, Schema::FromJson(*schema));
    DATABOX_ASSIGN_OR_RETURN(std::optional<int32_t> last,
                             internal::GetOptionalInt32(json, "last-column-id", what));
    return AddSchema{std::move(parsed), last};
  }
  if (action == "set-current-schema") {
    DATABOX_ASSIGN_OR_RETURN(int32_t id, internal::GetInt32(json, "schema-id", what));
    return SetCurrentSchema{id};
  }
  if (action == "add-spec") {
    DATABOX_ASSIGN_OR_RETURN(const nlohmann::json* spec, internal::Member(json, "spec", what));
    DATABOX_ASSIGN_OR_RETURN(PartitionSpec parsed, PartitionSpec::FromJson(*spec));
    return AddPartitionSpec{std::move(parsed)};
  }
  if (action == "set-default-spec") {
    DATABOX_ASSIGN_OR_RETURN(int32_t id, internal::GetInt32(json, "spec-id", what));
    return SetDefaultSpec{id};
  }
  if (action == "add-sort-order") {
    DATABOX_ASSIGN_OR_RETURN(const nlohmann::json* order,
                             internal::Member(json, "sort-order", what));
    DATABOX_ASSIGN_OR_RETURN(SortOrder parsed, SortOrder::FromJson(*order));
    return AddSortOrder{std::move(parsed)};
  }
  if (action == "set-default-sort-order") {
    DATABOX_ASSIGN_OR_RETURN(int32_t id, internal::GetInt32(json, "sort-order-id", what));
    return SetDefaultSortOrder{id};
  }
  if (action == "add-snapshot") {
    DATABOX_ASSIGN_OR_RETURN(const nlohmann::json* snapshot,
                             internal::Member(json, "snapshot", what));
    DATABOX_ASSIGN_OR_RETURN(Snapshot parsed, Snapshot::FromJson(*snapshot));
    return AddSnapshot{std::move(parsed)};
  }
  if (action == "set-snapshot-ref") {
    DATABOX_ASSIGN_OR_RETURN(std::string name, internal::GetString(json, "ref-name", what));
    DATABOX_ASSIGN_OR_RETURN(SnapshotRef ref, SnapshotRef::FromJson(json));
    return SetSnapshotRef{std::move(name), ref};
  }
  if (action == "remove-snapshots") {
    DATABOX_ASSIGN_OR_RETURN(const nlohmann::json* ids,
                             internal::Member(json, "snapshot-ids", what));
    if (!ids->is_array()) return internal::JsonError(what, "\"snapshot-ids\" must be an array");
    RemoveSnapshots out;
    for (const auto& id : *ids) {
      if (!id.is_number_integer())
        return internal::JsonError(what, "\"snapshot-ids\" must hold integers");
      out.snapshot_ids.push_back(id.get<int64_t>());
    }
    return out;
  }
  if (action == "remove-snapshot-ref") {
    DATABOX_ASSIGN_OR_RETURN(std::string name, internal::GetString(json, "ref-name", what));
    return RemoveSnapshotRef{std::move(name)};
  }
  if (action == "set-location") {
    DATABOX_ASSIGN_OR_RETURN(std::string location, internal::GetString(json, "location", what));
    return SetLocation{std::move(location)};
  }
  if (action == "set-properties") {
    DATABOX_ASSIGN_OR_RETURN(const nlohmann::json* updates,
                             internal::Member(json, "updates", what));
    if (!updates->is_object()) return internal::JsonError(what, "\"updates\" must be an object");
    SetProperties out;
    for (const auto& [k, v] : updates->items()) {
      if (!v.is_string())
        return internal::JsonError(what, "property \"" + k + "\" must be a string");
      out.updates[k] = v.get<std::string>();
    }
    return out;
  }
  if (action == "remove-properties") {
    DATABOX_ASSIGN_OR_RETURN(std::vector<std::string> removals, StringArray(json, "removals"));
    return RemoveProperties{std::move(removals)};
  }
  return internal::JsonError(kUpdateWhat, "unknown action \"" + action + "\"");
}

Result<TableMetadata> ApplyUpdates(const TableMetadata* base, std::span<const TableUpdate> updates,
                                   int64_t now_ms) {
  TableMetadata start;
  if (base != nullptr) {
    start = *base;
  } else {
    start.current_schema_id = -1;
    start.default_spec_id = 0;
    start.default_sort_order_id = kUnsortedOrderId;
  }
  MetadataBuilder builder(std::move(start), now_ms);
  for (const auto& update : updates) DATABOX_RETURN_IF_ERROR(builder.Apply(update));
  return std::move(builder).Finish(base == nullptr);
}

Result<TableMetadata> ApplyUpdates(const TableMetadata* base,
                                   std::span<const TableUpdate> updates) {
  return ApplyUpdates(base, updates, NowMs());
}

Status AppendMetadataLog(TableMetadata& next, std::string previous_metadata_location,
                         int64_t previous_last_updated_ms) {
  auto set = WholeNumberProperty(next.properties, kPreviousVersionsMaxProperty);
  if (!set) {
    return std::unexpected(TablePropertyError("at " + next.location, next.properties,
                                              kPreviousVersionsMaxProperty,
                                              "not a whole number >= 0"));
  }
  const int64_t max_entries = std::max<int64_t>(1, set->value_or(kPreviousVersionsMaxDefault));
  next.metadata_log.push_back(
      MetadataLogEntry{std::move(previous_metadata_location), previous_last_updated_ms});
  if (static_cast<int64_t>(next.metadata_log.size()) > max_entries) {
    const auto excess = static_cast<std::ptrdiff_t>(next.metadata_log.size()) -
                        static_cast<std::ptrdiff_t>(max_entries);
    next.metadata_log.erase(next.metadata_log.begin(), next.metadata_log.begin() + excess);
  }
  return Ok();
}

Result<TableMetadata> NewTableMetadata(const Schema& schema, const PartitionSpec& spec,
                                       const SortOrder& sort_order, std::string location,
                                       std::map<std::string, std::string> properties) {
  DATABOX_RETURN_IF_ERROR(schema.Validate());
  if (location.empty()) return MakeError(ErrorKind::kConfig, "a new table needs a location");
  while (location.size() > 1 && location.back() == '/') location.pop_back();

  std::vector<NestedField> fields = schema.fields();
  std::unordered_map<int32_t, int32_t> old_to_new;
  int32_t next = 1;
  AssignFreshFieldIds(fields, next, &old_to_new);
  auto remap = [&](int32_t old_id, const std::string& user) -> Result<int32_t> {
    auto it = old_to_new.find(old_id);
    if (it == old_to_new.end()) {
      return MakeError(ErrorKind::kData, user + " refers to column id " + std::to_string(old_id) +
                                             ", which the schema lacks");
    }
    return it->second;
  };
  std::vector<int32_t> identifiers;
  for (int32_t id : schema.identifier_field_ids()) {
    DATABOX_ASSIGN_OR_RETURN(int32_t fresh, remap(id, "identifier field"));
    identifiers.push_back(fresh);
  }
  Schema fresh_schema(0, std::move(fields), std::move(identifiers));

  PartitionSpec fresh_spec{0, {}};
  int32_t partition_id = kPartitionDataIdStart;
  for (const auto& f : spec.fields) {
    DATABOX_ASSIGN_OR_RETURN(int32_t source,
                             remap(f.source_id, "partition field \"" + f.name + "\""));
    fresh_spec.fields.push_back(PartitionField{source, partition_id++, f.name, f.transform});
  }
  DATABOX_RETURN_IF_ERROR(fresh_spec.Validate(fresh_schema));

  SortOrder fresh_order{sort_order.is_unsorted() ? kUnsortedOrderId : kUnsortedOrderId + 1, {}};
  for (const auto& f : sort_order.fields) {
    DATABOX_ASSIGN_OR_RETURN(int32_t source, remap(f.source_id, "sort field"));
    SortField field = f;
    field.source_id = source;
    fresh_order.fields.push_back(field);
  }

  TableMetadata md;
  md.format_version = kDefaultFormatVersion;
  md.table_uuid = NewUuid();
  md.location = std::move(location);
  md.last_updated_ms = NowMs();
  md.last_column_id = fresh_schema.HighestFieldId();
  md.current_schema_id = 0;
  md.schemas.push_back(std::move(fresh_schema));
  md.default_spec_id = 0;
  md.last_partition_id = fresh_spec.LastAssignedFieldId();
  md.partition_specs.push_back(std::move(fresh_spec));
  md.default_sort_order_id = fresh_order.order_id;
  md.sort_orders.push_back(std::move(fresh_order));
  md.properties = std::move(properties);
  DATABOX_RETURN_IF_ERROR(md.Validate());
  return md;
}

std::vector<TableUpdate> CreateTableUpdates(const TableMetadata& md) {
  std::vector<TableUpdate> updates;
  updates.push_back(AssignUuid{md.table_uuid});
  updates.push_back(UpgradeFormatVersion{md.format_version});
  if (const Schema* schema = md.CurrentSchema())
    updates.push_back(AddSchema{*schema, md.last_column_id});
  updates.push_back(SetCurrentSchema{kLastAdded});
  if (const PartitionSpec* spec = md.DefaultSpec()) updates.push_back(AddPartitionSpec{*spec});
  updates.push_back(SetDefaultSpec{kLastAdded});
  if (const SortOrder* order = md.DefaultSortOrder()) updates.push_back(AddSortOrder{*order});
  updates.push_back(SetDefaultSortOrder{kLastAdded});
  updates.push_back(SetLocation{md.location});
  if (!md.properties.empty()) updates.push_back(SetProperties{md.properties});
  return updates;
}

}  // namespace databox::iceberg
