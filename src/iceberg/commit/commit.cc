#include "iceberg/commit/commit.h"

#include <algorithm>
#include <random>
#include <set>
#include <thread>
#include <type_traits>

#include "common/failpoint.h"
#include "iceberg/produce/snapshot_producer.h"

namespace databox::iceberg {
namespace {

using Clock = std::chrono::steady_clock;

//! Kinds after which the commit may have landed (or we cannot tell): never delete files.
bool OutcomeUnknown(ErrorKind kind) {
  return kind == ErrorKind::kCommitStateUnknown || kind == ErrorKind::kNetwork ||
         kind == ErrorKind::kIo || kind == ErrorKind::kInternal;
}

void DeleteQuietly(fileio::FileIO& io, const std::vector<std::string>& files) {
  for (const auto& file : files) (void)io.Delete(file);
}

std::chrono::milliseconds Jittered(std::chrono::milliseconds backoff) {
  thread_local std::mt19937_64 rng{std::random_device{}()};
  std::uniform_int_distribution<int64_t> dist(backoff.count() / 2,
                                              std::max<int64_t>(1, backoff.count()));
  return std::chrono::milliseconds(dist(rng));
}

//! Whether `metadata` holds the snapshot `planned` committed.
bool Landed(const TableMetadata& metadata, const PlannedChange& planned) {
  if (!planned.snapshot_id) return false;
  const Snapshot* snapshot = metadata.SnapshotById(*planned.snapshot_id);
  if (snapshot == nullptr) return false;
  if (planned.load_id.empty()) return true;
  auto it = snapshot->summary.find(kLoadIdSummaryKey);
  return it != snapshot->summary.end() && it->second == planned.load_id;
}

Result<std::optional<LoadedTable>> LoadOrMissing(Catalog& catalog, const TableIdentifier& table) {
  auto loaded = catalog.LoadTable(table);
  if (loaded) return std::optional<LoadedTable>(std::move(*loaded));
  if (loaded.error().kind == ErrorKind::kNotFound) return std::optional<LoadedTable>();
  return std::unexpected(loaded.error());
}

}  // namespace

std::vector<TableRequirement> DeriveRequirements(const TableMetadata* base,
                                                 std::span<const TableUpdate> updates) {
  std::vector<TableRequirement> out;
  if (base == nullptr) {
    out.emplace_back(AssertCreate{});
    return out;
  }
  out.emplace_back(AssertTableUuid{base->table_uuid});
  std::set<std::string> refs;
  bool schema = false, spec = false, order = false;
  for (const auto& update : updates) {
    std::visit(
        [&](const auto& u) {
          using T = std::decay_t<decltype(u)>;
          if constexpr (std::is_same_v<T, SetSnapshotRef> || std::is_same_v<T, RemoveSnapshotRef>) {
            refs.insert(u.ref_name);
          } else if constexpr (std::is_same_v<T, AddSchema> ||
                               std::is_same_v<T, SetCurrentSchema>) {
            schema = true;
          } else if constexpr (std::is_same_v<T, AddPartitionSpec> ||
                               std::is_same_v<T, SetDefaultSpec>) {
            spec = true;
          } else if constexpr (std::is_same_v<T, AddSortOrder> ||
                               std::is_same_v<T, SetDefaultSortOrder>) {
            order = true;
          }
        },
        update);
  }
  for (const auto& ref : refs) {
    const SnapshotRef* current = base->RefByName(ref);
    out.push_back(AssertRefSnapshotId{
        ref, current ? std::optional<int64_t>(current->snapshot_id) : std::nullopt});
  }
  if (schema) {
    out.push_back(AssertCurrentSchemaId{base->current_schema_id});
    out.push_back(AssertLastAssignedFieldId{base->last_column_id});
  }
  if (spec) {
    out.push_back(AssertLastAssignedPartitionId{base->last_partition_id});
    out.push_back(AssertDefaultSpecId{base->default_spec_id});
  }
  if (order) out.push_back(AssertDefaultSortOrderId{base->default_sort_order_id});
  return out;
}

Result<RetryPolicy> ApplyCommitRetryProperties(RetryPolicy policy,
                                               const std::map<std::string, std::string>& properties,
                                               const std::string& table) {
  auto number = [&](const std::string& key) -> Result<std::optional<int64_t>> {
    auto value = WholeNumberProperty(properties, key);
    if (!value) {
      return std::unexpected(TablePropertyError(table, properties, key, "not a whole number >= 0"));
    }
    return value;
  };
  using std::chrono::milliseconds;
  DATABOX_ASSIGN_OR_RETURN(auto retries, number("commit.retry.num-retries"));
  DATABOX_ASSIGN_OR_RETURN(auto min_wait, number("commit.retry.min-wait-ms"));
  DATABOX_ASSIGN_OR_RETURN(auto max_wait, number("commit.retry.max-wait-ms"));
  DATABOX_ASSIGN_OR_RETURN(auto total, number("commit.retry.total-timeout-ms"));
  if (retries && *retries < policy.max_attempts - 1) {
    policy.max_attempts = static_cast<int>(*retries + 1);
  }
  if (total) policy.budget = std::min(policy.budget, milliseconds(*total));
  // Waits longer than the whole budget would only end the commit later.
  auto wait = [&](int64_t ms) { return std::min(milliseconds(ms), policy.budget); };
  if (min_wait) policy.initial_backoff = std::max(policy.initial_backoff, wait(*min_wait));
  if (max_wait) policy.max_backoff = std::max(policy.max_backoff, wait(*max_wait));
  policy.max_backoff = std::max(policy.max_backoff, policy.initial_backoff);
  return policy;
}

Result<std::vector<LoadedTable>> CommitChanges(Catalog& catalog, fileio::FileIO& io,
                                               std::span<TableChange* const> changes,
                                               const RetryPolicy& requested) {
  const auto start = Clock::now();
  RetryPolicy policy = requested;  // narrowed by the tables' properties at the first attempt
  auto backoff = policy.initial_backoff;
  auto durable = [&] {
    std::vector<std::string> files;
    for (auto* change : changes) {
      for (auto& f : change->DurableFiles()) files.push_back(std::move(f));
    }
    return files;
  };
  // An attempt whose outcome was not known may still land later (a slow server finishing the
  // request the client gave up on): from then on the files every attempt shares stay, whatever
  // happens, since a snapshot that lands may reference them.
  bool may_land_later = false;
  auto rejected = [&](const Error& error) -> Result<std::vector<LoadedTable>> {
    if (!may_land_later) {
      DeleteQuietly(io, durable());
      return std::unexpected(error);
    }
    Error unknown = error.WithContext(
        "an earlier attempt's outcome is unknown and it may still land; files kept for "
        "reconciliation");
    unknown.kind = ErrorKind::kCommitStateUnknown;
    return std::unexpected(unknown);
  };
  // Each change's snapshot as last planned (its id stays the same across attempts), to find it
  // in the table when an attempt whose outcome was unknown landed after all.
  std::vector<PlannedChange> ours(changes.size());

  for (int attempt = 1;; ++attempt) {
    std::vector<std::optional<LoadedTable>> bases;
    std::vector<PlannedChange> plans;
    // Gives up for good: this attempt's files, then the ones kept across attempts.
    auto abandon = [&](const Error& error) {
      for (auto& p : plans) DeleteQuietly(io, p.attempt_files);
      return rejected(error);
    };
    std::vector<TableCommit> commits;
    std::vector<size_t> committed_index;  // changes with updates, in commit order
    for (size_t i = 0; i < changes.size(); ++i) {
      // The first attempt starts from the caller's read, if it gave one; a retry reads again.
      std::optional<LoadedTable> base = changes[i]->TakeRead();
      if (attempt > 1 || !base) {
        DATABOX_ASSIGN_OR_RETURN(base, LoadOrMissing(catalog, changes[i]->identifier()));
      }
      if (attempt == 1 && base) {
        auto narrowed = ApplyCommitRetryProperties(policy, base->metadata.properties,
                                                   changes[i]->identifier().ToString());
        if (!narrowed) return abandon(narrowed.error());
        policy = *narrowed;
        backoff = policy.initial_backoff;
      }
      bases.push_back(std::move(base));
      if (bases.back() && Landed(bases.back()->metadata, ours[i])) {
        plans.emplace_back();  // already in the table: nothing left to commit for it
        continue;
      }
      auto plan = changes[i]->Plan(bases.back() ? &*bases.back() : nullptr);
      if (!plan) {
        return abandon(plan.error().WithContext("planning a commit to " +
                                                changes[i]->identifier().ToString()));
      }
      plans.push_back(std::move(*plan));
      ours[i].snapshot_id = plans.back().snapshot_id;
      ours[i].load_id = plans.back().load_id;
      if (plans.back().updates.empty()) continue;
      TableCommit commit{changes[i]->identifier(),
                         DeriveRequirements(bases.back() ? &bases.back()->metadata : nullptr,
                                            plans.back().updates),
                         plans.back().updates};
      for (const auto& r : plans.back().requirements) commit.requirements.push_back(r);
      commits.push_back(std::move(commit));
      committed_index.push_back(i);
    }

    std::vector<LoadedTable> results;
    auto finish = [&](std::vector<LoadedTable> landed) {
      for (size_t k = 0; k < committed_index.size(); ++k) {
        bases[committed_index[k]] = std::move(landed[k]);
      }
      for (auto& base : bases) results.push_back(base ? std::move(*base) : LoadedTable{});
      return results;
    };
    if (commits.empty()) return finish({});

    Result<std::vector<LoadedTable>> outcome;
    if (commits.size() == 1) {
      auto one = catalog.CommitTable(commits.front());
      if (one) {
        outcome = std::vector<LoadedTable>{std::move(*one)};
      } else {
        outcome = std::unexpected(one.error());
      }
    } else {
      outcome = catalog.CommitTransaction(commits);
    }
    if (outcome) {
      Failpoint("after-catalog-swap");
      return finish(std::move(*outcome));
    }

    const Error error = outcome.error();
    const bool out_of_budget =
        attempt >= policy.max_attempts || Clock::now() - start >= policy.budget;
    if (error.kind == ErrorKind::kConflict) {
      for (auto& p : plans) DeleteQuietly(io, p.attempt_files);
      if (out_of_budget) {
        return rejected(error.WithContext("commit rejected after " + std::to_string(attempt) +
                                          " attempts (concurrent writers); retry the load"));
      }
    } else if (OutcomeUnknown(error.kind)) {
      // Reconcile: did every change's snapshot land?
      bool all_landed = true;
      std::vector<LoadedTable> landed;
      for (size_t k : committed_index) {
        auto reloaded = catalog.LoadTable(changes[k]->identifier());
        if (!reloaded || !Landed(reloaded->metadata, plans[k])) {
          all_landed = false;
          break;
        }
        landed.push_back(std::move(*reloaded));
      }
      if (all_landed) return finish(std::move(landed));
      may_land_later = true;
      if (out_of_budget) {
        return std::unexpected(error.WithContext("commit outcome unknown and not visible after " +
                                                 std::to_string(attempt) +
                                                 " attempts; files kept for reconciliation"));
      }
    } else if (commits.size() > 1 && !catalog.TransactionsCreateTables()) {
      // The catalog refused a transaction that creates tables and applied nothing: the
      // caller commits the same changes another way, so the files they keep stay.
      for (auto& p : plans) DeleteQuietly(io, p.attempt_files);
      return std::unexpected(error);
    } else {
      return abandon(error);
    }
    std::this_thread::sleep_for(Jittered(backoff));
    backoff = std::min(policy.max_backoff, backoff * 2);
  }
}

Result<LoadedTable> CommitChange(Catalog& catalog, fileio::FileIO& io, TableChange& change,
                                 const RetryPolicy& policy) {
  TableChange* changes[] = {&change};
  DATABOX_ASSIGN_OR_RETURN(auto results, CommitChanges(catalog, io, changes, policy));
  return std::move(results.front());
}

}  // namespace databox::iceberg
