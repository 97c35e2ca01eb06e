#include "load/merge_dedup.h"

#include <set>
#include <string>

#include "duck/quote.h"
#include "source/extractor.h"

namespace databox::load {
namespace {

using duck::QuoteIdentifier;

//! kData when a primary key column is absent from `relation` (records of another shape, or a
//! primary_key naming no column) or null in one of its rows: a null key never equals another,
//! so every load would add the record again.
Status CheckKeyColumns(duck::Connection& conn, const registry::Source& source,
                       const registry::Resource& resource, const std::string& relation) {
  const std::string label = source::ResourceLabel(source, resource);
  DATABOX_ASSIGN_OR_RETURN(auto described,
                           conn.Query("SELECT column_name FROM (DESCRIBE " + relation + ")"));
  std::set<std::string> columns;
  std::string listed;
  for (uint64_t row = 0; row < described.row_count(); ++row) {
    DATABOX_ASSIGN_OR_RETURN(std::string name, described.GetString(0, row));
    if (name.starts_with("_dlt_")) continue;
    listed += (listed.empty() ? "" : ", ") + name;
    columns.insert(std::move(name));
  }
  std::string any_null;
  for (const std::string& key : resource.primary_key) {
    if (!columns.contains(key)) {
      return MakeError(ErrorKind::kData,
                       label + ": the records have no primary key column '" + key +
                           "' (their columns: " + (listed.empty() ? "none" : listed) +
                           "); check primary_key and records_path against the response; "
                           "nothing was committed");
    }
    any_null += (any_null.empty() ? "" : " OR ") + QuoteIdentifier(key) + " IS NULL";
  }
  if (any_null.empty()) return Ok();
  DATABOX_ASSIGN_OR_RETURN(auto nulls,
                           conn.Query("SELECT count(*) FROM " + relation + " WHERE " + any_null));
  DATABOX_ASSIGN_OR_RETURN(int64_t count, nulls.GetInt64(0, 0));
  if (count > 0) {
    return MakeError(ErrorKind::kData,
                     label + ": " + std::to_string(count) +
                         " record(s) have a null primary key column '" +
                         resource.primary_key.front() +
                         (resource.primary_key.size() > 1 ? "' (or another key column)" : "'") +
                         "; a merge key must never be null (it would add the record again on "
                         "every load); fix the source or primary_key; nothing was committed");
  }
  return Ok();
}

//! kData when a primary key value occurs more than once in `relation`.
Status RejectRepeatedKeys(duck::Connection& conn, const registry::Source& source,
                          const registry::Resource& resource, const std::string& relation) {
  const std::string keys = duck::QuoteIdentifierList(resource.primary_key);
  DATABOX_ASSIGN_OR_RETURN(auto dups, conn.Query("SELECT count(*) FROM (SELECT " + keys + " FROM " +
                                                 relation + " GROUP BY ALL HAVING count(*) > 1)"));
  DATABOX_ASSIGN_OR_RETURN(int64_t count, dups.GetInt64(0, 0));
  if (count > 0) {
    return MakeError(ErrorKind::kData,
                     source::ResourceLabel(source, resource) + ": " + std::to_string(count) +
                         " primary key value(s) occur more than once in this batch and "
                         "merge_duplicates = \"reject\"; nothing was committed");
  }
  return Ok();
}

//! Copies one row per primary key of `relation` (the first or last appended, by the policy)
//! into a new staged table; returns its name.
Result<std::string> KeepOneRowPerKey(duck::Connection& conn, const registry::Resource& resource,
                                     const std::string& relation) {
  const std::string keys = duck::QuoteIdentifierList(resource.primary_key);
  const char* order =
      resource.merge_duplicates == registry::DuplicatePolicy::kFirstWins ? "ASC" : "DESC";
  const std::string dedup =
      QuoteIdentifier("stage") + "." + QuoteIdentifier(resource.name + "__dedup");
  DATABOX_RETURN_IF_ERROR(conn.Execute("CREATE TABLE " + dedup +
                                       " AS SELECT * EXCLUDE (databox_rn_) FROM (SELECT *, "
                                       "row_number() OVER (PARTITION BY " +
                                       keys + " ORDER BY rowid " + order +
                                       ") AS databox_rn_ FROM " + relation +
                                       ") WHERE databox_rn_ = 1"));
  return dedup;
}

//! Deletes the staged child rows of `resource` whose root row is not in `kept`.
Status DropChildrenOfDroppedRows(duck::Connection& conn, const NormalizedTables& tables,
                                 const registry::Resource& resource, const std::string& kept) {
  for (const StagedTable* child : tables.StagedChildren(resource)) {
    DATABOX_RETURN_IF_ERROR(conn.Execute("DELETE FROM " + child->relation +
                                         " WHERE _dlt_root_id NOT IN (SELECT _dlt_id FROM " + kept +
                                         ")"));
  }
  return Ok();
}

}  // namespace

Status DeduplicateMergeBatches(duck::Connection& conn, const registry::Source& source,
                               const std::vector<const registry::Resource*>& resources,
                               NormalizedTables& tables) {
  for (const registry::Resource* fed : resources) {
    const registry::Resource& resource = *fed;
    if (resource.write_disposition != registry::WriteDisposition::kMerge) continue;
    const StagedTable* staged = tables.Staged(resource.name);
    if (staged == nullptr) continue;
    DATABOX_RETURN_IF_ERROR(CheckKeyColumns(conn, source, resource, staged->relation));
    if (resource.merge_duplicates == registry::DuplicatePolicy::kReject) {
      DATABOX_RETURN_IF_ERROR(RejectRepeatedKeys(conn, source, resource, staged->relation));
      tables.SetMergeRows(resource.name, staged->relation);
      continue;
    }
    DATABOX_ASSIGN_OR_RETURN(std::string kept, KeepOneRowPerKey(conn, resource, staged->relation));
    tables.SetMergeRows(resource.name, kept);
    DATABOX_RETURN_IF_ERROR(DropChildrenOfDroppedRows(conn, tables, resource, kept));
  }
  return Ok();
}

}  // namespace databox::load
