#include "iceberg/commit/table_operations.h"

#include "iceberg/spec/schema_evolution.h"

namespace databox::iceberg {

std::unique_ptr<SnapshotOperation> SnapshotOperation::Make(TableIdentifier table,
                                                           std::shared_ptr<fileio::FileIO> io,
                                                           SnapshotChange change,
                                                           const char* operation) {
  change.operation = operation;
  return std::unique_ptr<SnapshotOperation>(
      new SnapshotOperation(std::move(table), std::move(io), std::move(change)));
}

std::unique_ptr<SnapshotOperation> SnapshotOperation::Append(TableIdentifier table,
                                                             std::shared_ptr<fileio::FileIO> io,
                                                             SnapshotChange change) {
  return Make(std::move(table), std::move(io), std::move(change), kOperationAppend);
}

std::unique_ptr<SnapshotOperation> SnapshotOperation::ReplaceAll(TableIdentifier table,
                                                                 std::shared_ptr<fileio::FileIO> io,
                                                                 SnapshotChange change) {
  change.delete_all = true;
  return Make(std::move(table), std::move(io), std::move(change), kOperationOverwrite);
}

std::unique_ptr<SnapshotOperation> SnapshotOperation::Replace(TableIdentifier table,
                                                              std::shared_ptr<fileio::FileIO> io,
                                                              SnapshotChange change) {
  return Make(std::move(table), std::move(io), std::move(change), kOperationReplace);
}

std::unique_ptr<SnapshotOperation> SnapshotOperation::Overwrite(TableIdentifier table,
                                                                std::shared_ptr<fileio::FileIO> io,
                                                                SnapshotChange change) {
  return Make(std::move(table), std::move(io), std::move(change), kOperationOverwrite);
}

Result<PlannedChange> SnapshotOperation::Plan(const LoadedTable* base) {
  PlannedChange planned;
  TableMetadata created;
  const TableMetadata* metadata = nullptr;
  if (base != nullptr) {
    metadata = &base->metadata;
  } else {
    if (create_updates_.empty()) {
      return MakeError(ErrorKind::kNotFound,
                       "table " + table_.ToString() + " does not exist: create it first");
    }
    DATABOX_ASSIGN_OR_RETURN(created, ApplyUpdates(nullptr, create_updates_));
    metadata = &created;
    planned.updates = create_updates_;
  }
  // An overwrite that only adds is an append; one that only removes is a delete.
  SnapshotChange& change = producer_.mutable_change();
  if (change.operation == kOperationOverwrite) {
    const bool removes =
        change.delete_all || !change.deleted_paths.empty() || !change.added_delete_files.empty();
    if (change.added_files.empty() && removes) change.operation = kOperationDelete;
    if (!removes) change.operation = kOperationAppend;
  }
  DATABOX_ASSIGN_OR_RETURN(ProducedSnapshot produced, producer_.Produce(*metadata));
  for (auto& u : produced.updates) planned.updates.push_back(std::move(u));
  planned.attempt_files = std::move(produced.attempt_files);
  planned.snapshot_id = produced.snapshot.snapshot_id;
  planned.load_id = change.load_id;
  return planned;
}

std::vector<std::string> SnapshotOperation::DurableFiles() const {
  std::vector<std::string> files;
  for (auto& manifest : producer_.added_manifest_paths()) files.push_back(std::move(manifest));
  for (const auto& f : producer_.change().added_files) files.push_back(f.file_path);
  for (const auto& f : producer_.change().added_delete_files) files.push_back(f.file_path);
  return files;
}

Result<LoadedTable> SnapshotOperation::Commit(Catalog& catalog, const RetryPolicy& policy) {
  return CommitChange(catalog, *io_, *this, policy);
}

Result<PlannedChange> SchemaUpdate::Plan(const LoadedTable* base) {
  if (base == nullptr) {
    return MakeError(ErrorKind::kNotFound, "table " + table_.ToString() + " does not exist");
  }
  const TableMetadata& metadata = base->metadata;
  const Schema* current = metadata.CurrentSchema();
  if (current == nullptr) return MakeError(ErrorKind::kData, "table has no current schema");
  DATABOX_ASSIGN_OR_RETURN(Schema merged,
                           UnionByName(*current, incoming_, metadata.last_column_id));
  PlannedChange planned;
  if (merged.SameStructure(*current)) return planned;
  const int32_t last_column_id = std::max(metadata.last_column_id, merged.HighestFieldId());
  planned.updates.push_back(AddSchema{merged, last_column_id});
  planned.updates.push_back(SetCurrentSchema{kLastAdded});
  return planned;
}

Result<PlannedChange> FastForward::Plan(const LoadedTable* base) {
  if (base == nullptr) {
    return MakeError(ErrorKind::kNotFound, "table " + table_.ToString() + " does not exist");
  }
  const TableMetadata& metadata = base->metadata;
  const SnapshotRef* from = metadata.RefByName(from_);
  if (from == nullptr) {
    return MakeError(ErrorKind::kNotFound, "branch " + from_ + " of " + table_.ToString() +
                                               " does not exist: nothing to publish");
  }
  const SnapshotRef* to = metadata.RefByName(to_);
  PlannedChange planned;
  if (to != nullptr && to->snapshot_id == from->snapshot_id) return planned;
  if (to != nullptr) {
    bool descends = false;
    for (const Snapshot* s = metadata.SnapshotById(from->snapshot_id); s != nullptr;
         s = s->parent_snapshot_id ? metadata.SnapshotById(*s->parent_snapshot_id) : nullptr) {
      if (s->snapshot_id == to->snapshot_id) {
        descends = true;
        break;
      }
    }
    if (!descends) {
      return MakeError(ErrorKind::kConflict, "cannot fast-forward " + to_ + " of " +
                                                 table_.ToString() + " to " + from_ +
                                                 ": it does not descend from " + to_ +
                                                 "'s snapshot; rebuild the branch from " + to_);
    }
  }
  SnapshotRef moved = to != nullptr ? *to : SnapshotRef::Branch(from->snapshot_id);
  moved.snapshot_id = from->snapshot_id;
  planned.updates.push_back(SetSnapshotRef{to_, moved});
  planned.requirements.push_back(AssertRefSnapshotId{from_, from->snapshot_id});
  return planned;
}

}  // namespace databox::iceberg
