#include "load/merge_dedup.h"

#include "duck/quote.h"
#include "source/extractor.h"

namespace databox::load {
namespace {

using duck::QuoteIdentifier;

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
