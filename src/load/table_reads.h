// The catalog's tables as one load reads them: each table the load touches is read from the
// catalog once (LoadTable), and every later step of the load starts from that read: the
// normalizer's known tables (existing_tables.h), the stream targets and the plan (table_plan.h)
// and the commit's first attempt (iceberg::TableChange::StartFrom). A change the load commits
// itself (new columns, a new layout) replaces the read with the catalog's answer; a commit that
// meets a conflict reads the table again (iceberg/commit/commit.h).
#pragma once

#include <map>
#include <mutex>
#include <optional>
#include <string>

#include "common/error.h"
#include "iceberg/commit/catalog.h"
#include "iceberg/spec/table_identifier.h"

namespace databox::load {

class TableReads {
 public:
  //! `catalog` must outlive the reads.
  explicit TableReads(iceberg::Catalog& catalog) : catalog_(catalog) {}

  iceberg::Catalog& catalog() const { return catalog_; }

  //! The table as this load read it (read now if it was not yet); nullopt when it does not
  //! exist.
  Result<std::optional<iceberg::LoadedTable>> Read(const iceberg::TableIdentifier& table);
  //! The table is now as `loaded` says (the catalog's answer to this load's own change).
  void Replace(const iceberg::TableIdentifier& table, iceberg::LoadedTable loaded);

 private:
  iceberg::Catalog& catalog_;
  std::mutex mutex_;
  std::map<std::string, std::optional<iceberg::LoadedTable>> read_;  //!< by TableIdentifier text
};

}  // namespace databox::load
