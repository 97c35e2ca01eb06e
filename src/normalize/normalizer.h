// dlt-compatible relational normalizer: JSON records of one resource -> rows of a root table and
// child tables, with the table schemas inferred (and evolved) as dlt 1.x infers them.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/error.h"
#include "normalize/coerce.h"
#include "normalize/column_batch.h"
#include "normalize/data_type.h"
#include "normalize/table_schema.h"

namespace simdjson::dom {
class element;
}  // namespace simdjson::dom

namespace databox::normalize {

//! A per-column hint on the root table; overrides inference (dlt's `columns=` hints).
struct ColumnHint {
  std::string name;                   //!< source or normalized name; normalized on use
  std::optional<DataType> data_type;  //!< set: the column exists from the start with this type
  std::optional<bool> nullable;       //!< unset: nullable unless primary key
  bool primary_key = false;           //!< part of the primary key
};

//! What the caller declares about a resource.
struct ResourceHints {
  std::string resource;    //!< resource name (for messages and the schema)
  std::string table_name;  //!< root table; normalized (dlt: table_name)
  WriteDisposition write_disposition = WriteDisposition::kAppend;  //!< append/replace/merge
  std::vector<std::string> primary_key;  //!< primary key columns (not nullable)
  std::vector<ColumnHint> columns;       //!< column hints, in declaration order
  //! dlt's `max_nesting`: objects and lists nested deeper than this stay json values.
  int max_nesting = 1000;
  //! Propagate the root row's `_dlt_id` to every child row as `_dlt_root_id`. Unset: only for
  //! merge (dlt's default delete-insert strategy needs it).
  std::optional<bool> root_key_propagation;
};

//! Tunables that do not change dlt compatibility.
struct NormalizerOptions {
  //! Destination identifier limit; longer names are shortened with a hash tag as dlt does.
  std::optional<std::size_t> max_identifier_length;
  //! Longest child table name: tables become folders and files named after them, and a file name
  //! holds at most 255 bytes. Lists nested so deep that a child table's name is longer fail the
  //! normalizer with a kData error that points at max_nesting.
  std::size_t max_table_name_length = 200;
  //! Generates `_dlt_id` for root rows; default: 10 random bytes, base64 (dlt's generate_dlt_id).
  //! A normalizer calls it from the thread that adds records.
  std::function<std::string()> row_id_generator;
  //! Tables as an earlier normalizer of the same resource left them (its Schemas()): a table
  //! named here starts with these columns (and keeps this parent), so records continue that
  //! normalizer's inference (types, variant columns) instead of starting afresh. Used to
  //! normalize parts of one input separately, and to continue the tables earlier loads made.
  //! Hinted root columns must appear in it as that normalizer made them.
  std::vector<TableSchema> known_tables;
  //! Records normalized before this normalizer's first one (record numbers in messages).
  std::size_t records_before = 0;
};

//! A column as the normalizer creates it, with dlt's default hints for its name: the system
//! columns (`_dlt_id`, `_dlt_load_id`, `_dlt_parent_id`, `_dlt_root_id`, `_dlt_list_idx`) are not
//! nullable, `_dlt_id` is the row key (and unique), `_dlt_parent_id` the parent key,
//! `_dlt_root_id` the root key. `variant`: a `<column>__v_<type>` column made by a type conflict.
Column NewColumn(std::string name, DataType type, bool variant = false);

//! The variant column that takes the values of type `value_type` a column `column` cannot hold:
//! `<column>__v_<type>` (dlt's name; shortened as any name past `max_identifier_length`).
std::string VariantColumnName(const std::string& column, DataType value_type,
                              std::optional<std::size_t> max_identifier_length = std::nullopt);

//! Normalizes records of one resource. Feed records with Add(); take rows with Flush() whenever
//! BufferedRows() grows too large; schemas keep growing across flushes (each batch carries the
//! schema it was flushed with). After an error the normalizer refuses further records: a load
//! with a record dlt would reject must fail, not skip rows silently.
class Normalizer {
 public:
  //! Validates the hints and creates the root table with its hinted columns.
  static Result<std::unique_ptr<Normalizer>> Make(ResourceHints hints, std::string load_id,
                                                  NormalizerOptions options = {});

  Normalizer(const Normalizer&) = delete;
  Normalizer& operator=(const Normalizer&) = delete;
  ~Normalizer();

  //! Normalizes one record (an object; other values become `{"value": v}` as in dlt).
  Status Add(const Json& record);
  //! Same, for records parsed as nlohmann::json (key order is then alphabetical).
  Status Add(const nlohmann::json& record);
  //! Same, for one record given as JSON text (e.g. an NDJSON line): parsed with simdjson and
  //! normalized straight from the parsed document, with the same result as Add(Json::parse(text)).
  //! Text that is not valid JSON fails the normalizer (kData).
  Status AddJsonText(std::string_view text);
  //! Same, for one record of a document simdjson already parsed (e.g. an element of a page's
  //! records array): the same result as Add() of the element read by nlohmann.
  Status AddJsonElement(const simdjson::dom::element& record);

  //! Rows buffered in all tables since the last Flush().
  std::size_t BufferedRows() const;

  //! Takes the buffered rows of every table that has any, root table first, then child tables
  //! in order of creation.
  std::vector<TableBatch> Flush();

  //! Current schemas of all tables, root first, then child tables in order of creation.
  std::vector<TableSchema> Schemas() const;

  //! The normalized root table name.
  const std::string& root_table() const;

 private:
  struct State;
  explicit Normalizer(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

}  // namespace databox::normalize
