// Committing table changes through a catalog with optimistic concurrency.
//
// Each attempt loads the tables (the first one starts from the caller's read of a table where
// the change has one, TableChange::StartFrom), asks every change to plan itself against them,
// derives the requirements from the planned updates and commits (one table: CommitTable;
// several: CommitTransaction, all or nothing). On kConflict the attempt's own files are
// deleted (the catalog rejected them) and the loop re-plans after an exponential backoff with
// jitter, within an attempt and time budget (the caller's RetryPolicy, narrowed by the tables'
// commit.retry.* properties). On kCommitStateUnknown nothing is deleted: the
// tables are reloaded and the commit counts as done if every change's snapshot is there
// (found by snapshot id and load id); otherwise it is retried. A slow server may still apply
// the request after that check, so every later attempt first looks for the change's snapshot
// (its id stays the same across attempts) in the table it reads and commits only the changes
// not there yet; and once an attempt's outcome was unknown, a later rejection keeps the files
// the attempts share and is reported as kCommitStateUnknown. Files an operation keeps across
// attempts (data files, the added-files manifest) are deleted only when the commit is rejected
// for good (a requirement that re-planning cannot fix, or the budget ran out on conflicts).
// They are kept when a transaction was refused because the catalog turned out not to create
// tables inside one (Catalog::TransactionsCreateTables turned false): the caller commits the
// same changes another way.
//
// This file only uses the Catalog interface (iceberg/commit/catalog.h); the implementations live in
// catalog/ above this module.
#pragma once

#include <chrono>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "common/error.h"
#include "fileio/file_io.h"
#include "iceberg/commit/catalog.h"
#include "iceberg/metadata/table_requirement.h"
#include "iceberg/metadata/table_update.h"

namespace databox::iceberg {

struct RetryPolicy {
  int max_attempts = 30;                         //!< commits tried, including the first
  std::chrono::milliseconds initial_backoff{5};  //!< sleep before the second attempt
  std::chrono::milliseconds max_backoff{500};    //!< cap of the doubling backoff
  std::chrono::milliseconds budget{120000};      //!< no new attempt after this much time
};

//! Iceberg's commit retry table properties, as they adjust `policy` for one table:
//! commit.retry.num-retries (attempts = retries + 1), commit.retry.min-wait-ms (the first
//! backoff), commit.retry.max-wait-ms (its cap) and commit.retry.total-timeout-ms (the budget).
//! A property set on the table is followed when it asks for fewer attempts, longer waits or a
//! shorter budget than `policy` (it can make commits gentler on the catalog, never more
//! insistent); applied table after table, a commit to several tables honours each one's limits.
//! A value that is not a whole number >= 0 is a kConfig error naming the table and property.
Result<RetryPolicy> ApplyCommitRetryProperties(RetryPolicy policy,
                                               const std::map<std::string, std::string>& properties,
                                               const std::string& table);

//! One table's change planned against the table as loaded.
struct PlannedChange {
  std::vector<TableUpdate> updates;            //!< empty = nothing to commit for this table
  std::vector<TableRequirement> requirements;  //!< added to the derived ones
  std::vector<std::string> attempt_files;      //!< written for this attempt only
  std::optional<int64_t> snapshot_id;          //!< our snapshot, for reconciliation
  std::string load_id;                         //!< its databox.load-id, for reconciliation
};

//! A change to one table that can plan itself against any version of the table.
class TableChange {
 public:
  virtual ~TableChange() = default;
  virtual const TableIdentifier& identifier() const = 0;
  //! Plans against `base` (nullptr: the table does not exist). Errors end the commit.
  virtual Result<PlannedChange> Plan(const LoadedTable* base) = 0;
  //! Files kept across attempts; deleted only when the commit is rejected for good.
  virtual std::vector<std::string> DurableFiles() const = 0;

  //! The table as the caller read it to make this change: the commit's first attempt plans
  //! against it instead of reading the table again; a retry after a conflict reads it again.
  void StartFrom(LoadedTable read) { read_ = std::move(read); }
  //! The read StartFrom gave, once: the first attempt takes it.
  std::optional<LoadedTable> TakeRead() { return std::exchange(read_, std::nullopt); }

 private:
  std::optional<LoadedTable> read_;
};

//! The requirements that make `updates` safe to apply to `base` (nullptr: assert-create):
//! assert-table-uuid; assert-ref-snapshot-id for every ref set or removed; assert-current-
//! schema-id and assert-last-assigned-field-id when the schema changes; assert-last-assigned-
//! partition-id and assert-default-spec-id when the spec changes; assert-default-sort-order-id
//! when the sort order does.
std::vector<TableRequirement> DeriveRequirements(const TableMetadata* base,
                                                 std::span<const TableUpdate> updates);

//! Commits the changes atomically (see the file comment); results in input order.
Result<std::vector<LoadedTable>> CommitChanges(Catalog& catalog, fileio::FileIO& io,
                                               std::span<TableChange* const> changes,
                                               const RetryPolicy& policy = {});

//! One table.
Result<LoadedTable> CommitChange(Catalog& catalog, fileio::FileIO& io, TableChange& change,
                                 const RetryPolicy& policy = {});

}  // namespace databox::iceberg
