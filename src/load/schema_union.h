// The schemas of tables normalized in parts: parts normalized separately (each seeded with the
// schemas of the parts before it) are combined in order into the schemas one normalizer would
// have built, and their batches re-laid to those schemas.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "normalize/column_batch.h"
#include "normalize/table_schema.h"

namespace databox::load {

//! Tables in order of creation (root first), growing as parts are added.
class SchemaUnion {
 public:
  const std::vector<normalize::TableSchema>& tables() const { return tables_; }

  //! Why a part's schemas cannot be added as they are: a column it has that the union has with
  //! another type or other flags (the part was normalized without knowing it). nullopt if they
  //! fit: every table and column either matches or is new.
  std::optional<std::string> Conflict(const std::vector<normalize::TableSchema>& part) const;

  //! Adds a part's schemas that fit (Conflict() is nullopt): new tables at the end, new columns
  //! at the end of their table, in the part's order.
  void Add(const std::vector<normalize::TableSchema>& part);

  //! Re-lays `batch` (of a part already added) to its table's schema in the union: columns in
  //! the union's order, all-NULL columns for those the part did not have.
  void Align(normalize::TableBatch& batch) const;

 private:
  const normalize::TableSchema* Find(const std::string& name) const;
  std::vector<normalize::TableSchema> tables_;
};

}  // namespace databox::load
